package imcodec.javatestee;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import imcodec.constraints.v1.Constraints.Limit;
import imcodec.testee.v1.Testee;
import imcodec.v1.Model;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * REST validation (docs/spec/rest.md, "Validation"): the import problems of a document ({@link RestImport}), or,
 * when there are none, the {@link Validator}'s findings on the imported value with their paths turned into REST
 * paths, the body size measured on the canonical {@code MsgBody} text, and the limits the declarations mark
 * {@code applies_to: "rest"} measured on the values the document holds. The REST key of every path component comes
 * from {@link RestForm}, every limit from the constraint declarations.
 */
final class RestValidator {
    private RestValidator() {}

    /** The limit measured on the REST text (the compact canonical MsgBody) instead of the model's encoding. */
    private static final String BODY_LIMIT = "maxMessageBodyBytes";
    /** A message need not name its target outside a relay: REST requests name it in the call. */
    private static final String TARGET_MISSING = "rule.message.target-missing";
    /** The model's finding (defined_enum) that a REST-only limit's finding on the same value replaces. */
    private static final String UNKNOWN_ENUM = "enum.unknown-value";
    private static final String PROBLEMS = "limit.problems";
    /** The place of an element object: its field is the elem kind. */
    private static final String ELEM = "";
    private static final Pattern COMPONENT = Pattern.compile("([^.\\[\\]]+)|\\[(\\d+)\\]");

    /** The REST keys a model field (JSON name) has in a place (a form, or an element), and the place they lead to. */
    private record Step(List<String> keys, String place) {}

    private static final Map<String, Map<String, Step>> STEPS = steps();

    private static Map<String, Map<String, Step>> steps() {
        Map<String, Map<String, Step>> steps = new LinkedHashMap<>();
        steps.put(ELEM, new LinkedHashMap<>());
        for (var form : RestForm.FORMS.entrySet()) {
            Map<String, Step> table = new LinkedHashMap<>();
            Descriptor type = Model.getDescriptor().findMessageTypeByName(RestForm.MODELS.get(form.getKey()));
            for (RestForm.Key k : form.getValue()) {
                if (k.field() != null) {
                    String json = type.findFieldByName(k.field()).getJsonName();
                    table.put(json, new Step(List.of(k.name()), k.value().equals("body") ? ELEM : k.form()));
                }
            }
            steps.put(form.getKey(), table);
        }
        for (var form : RestForm.FORMS.entrySet()) {
            for (RestForm.Key k : form.getValue()) {
                if (k.outside() == null) {
                    continue;
                }
                String model = k.outside().substring(0, k.outside().indexOf('.'));
                String field = k.outside().substring(k.outside().indexOf('.') + 1);
                String json = Model.getDescriptor().findMessageTypeByName(model).findFieldByName(field).getJsonName();
                for (var holder : RestForm.FORMS.entrySet()) {
                    if (!model.equals(RestForm.MODELS.get(holder.getKey()))) {
                        continue;
                    }
                    for (RestForm.Key outer : holder.getValue()) {
                        if (form.getKey().equals(outer.form())) {
                            steps.get(holder.getKey()).put(json, new Step(List.of(outer.name(), k.name()), null));
                        }
                    }
                }
            }
        }
        for (RestForm.ElemType elem : RestForm.ELEMS.values()) {
            String json = Model.Elem.getDescriptor().findFieldByName(elem.kind()).getJsonName();
            steps.get(ELEM).put(json, new Step(List.of(RestForm.ELEMENT_KEYS.get(1)), elem.form()));
        }
        return steps;
    }

    /**
     * The REST path of a payload path ({@code elems[1].image.levels[0].url} becomes
     * {@code MsgBody[1].MsgContent.ImageInfoArray[0].URL}): a path into a message, or, with {@code listKey}, into a
     * batch whose messages are the document's list under that key. A field without a REST key stays as it is.
     */
    static String restPath(String path, String listKey) {
        String place = listKey == null ? "message" : null;
        StringBuilder out = new StringBuilder();
        Matcher m = COMPONENT.matcher(path);
        boolean first = true;
        while (m.find()) {
            if (m.group(2) != null) {
                out.append('[').append(m.group(2)).append(']');
                continue;
            }
            String name = m.group(1);
            List<String> keys;
            if (first && listKey != null && name.equals("messages")) {
                keys = List.of(listKey);
                place = "message";
            } else {
                Step step = place == null ? null : STEPS.get(place).get(name);
                keys = step == null ? List.of(name) : step.keys();
                place = step == null ? null : step.place();
            }
            first = false;
            for (String key : keys) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(key);
            }
        }
        return out.toString();
    }

    /** The limits of the REST form only, by {@code Model.field} (proto names) of the fields they govern. */
    private static Map<String, List<Limit>> restLimits(Declarations declarations) {
        Map<String, List<Limit>> out = new LinkedHashMap<>();
        for (var form : RestForm.FORMS.entrySet()) {
            String model = RestForm.MODELS.get(form.getKey());
            Descriptor type = Model.getDescriptor().findMessageTypeByName(model);
            for (RestForm.Key k : form.getValue()) {
                if (k.field() == null) {
                    continue;
                }
                FieldDescriptor field = type.findFieldByName(k.field());
                for (Declarations.Applied applied : declarations.applied(field)) {
                    if (applied.limit().getAppliesTo().equals("rest")) {
                        List<Limit> list = out.computeIfAbsent(model + "." + k.field(), key -> new ArrayList<>());
                        if (!list.contains(applied.limit())) {
                            list.add(applied.limit());
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * The testee's {@code validate_rest}: every finding of the document under the named profile.
     *
     * @throws BadRequest the profile is one no declaration knows
     */
    static Testee.Findings answer(Testee.ValidateRestRequest request, DecodingLimits limits) {
        Declarations.Profile profile = Declarations.Profile.named(request.getProfile());
        if (profile == null) {
            throw new BadRequest("unknown profile \"" + request.getProfile() + "\"; known: "
                    + Declarations.Profile.NAMES);
        }
        return validate(request.getRest(), profile, limits);
    }

    static Testee.Findings validate(String text, Declarations.Profile profile, DecodingLimits limits) {
        Declarations declarations = Declarations.of(Model.MessageBatch.getDescriptor());
        Map<String, List<Limit>> restLimits = restLimits(declarations);
        RestImport.Import read = RestImport.inspect(text, limits, restLimits.keySet());
        Testee.Findings.Builder findings = Testee.Findings.newBuilder();
        if (!read.problems().isEmpty()) {
            int keep = (int) Math.min(limits.maxProblems, read.problems().size());
            for (RestImport.Problem problem : read.problems().subList(0, keep)) {
                findings.addFindings(error(problem.code(), problem.path(),
                        problem.limit() == null ? 0 : problem.limit(), problem.observed() == null ? 0 : problem.observed()));
            }
            if (read.problems().size() > keep) {
                findings.addFindings(error(PROBLEMS, "", limits.maxProblems, read.problems().size()));
            }
            return findings.build();
        }
        String listKey = read.batch() ? read.listKey() : null;
        List<Model.Message> messages = read.batch() ? ((Model.MessageBatch) read.value()).getMessagesList()
                : List.of((Model.Message) read.value());

        Testee.Findings.Builder measured = Testee.Findings.newBuilder();
        Set<String> measuredAt = new HashSet<>();
        for (RestImport.Value value : read.values()) {
            for (Limit limit : restLimits.get(value.model() + "." + value.field())) {
                for (Testee.Finding finding : Validator.measure(limit, profile, value.value(), value.path())
                        .getFindingsList()) {
                    measuredAt.add(finding.getPath());
                    measured.addFindings(finding);
                }
            }
        }

        for (Testee.Finding finding : Validator.validate(read.value(), profile, Set.of(BODY_LIMIT))
                .getFindingsList()) {
            String path = restPath(finding.getPath(), listKey);
            if (finding.getCode().equals(TARGET_MISSING)
                    && !List.of(path.split("\\.")).contains(RestForm.ELEMENT_KEYS.get(1))) {
                continue;
            }
            if (finding.getCode().equals(UNKNOWN_ENUM) && measuredAt.contains(path)) {
                continue;
            }
            findings.addFindings(finding.toBuilder().setPath(path));
        }
        Limit body = declarations.limit(BODY_LIMIT);
        String bodyKey = RestForm.FORMS.get("message").stream().filter(k -> k.value().equals("body")).findFirst()
                .orElseThrow().name();
        for (int i = 0; i < messages.size(); i++) {
            long size = RestExport.body(messages.get(i)).getBytes(StandardCharsets.UTF_8).length;
            String path = listKey == null ? bodyKey : listKey + "[" + i + "]." + bodyKey;
            findings.addAllFindings(Validator.measure(body, profile, size, path).getFindingsList());
        }
        findings.addAllFindings(measured.getFindingsList());
        return findings.build();
    }

    private static Testee.Finding error(String code, String path, long limit, long actual) {
        return Testee.Finding.newBuilder().setCode(code).setPath(path).setSeverity("error").setLimit(limit)
                .setActual(actual).build();
    }
}
