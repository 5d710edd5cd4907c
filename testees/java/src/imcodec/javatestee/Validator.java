package imcodec.javatestee;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import imcodec.constraints.v1.Constraints.Actual;
import imcodec.constraints.v1.Constraints.Check;
import imcodec.constraints.v1.Constraints.FieldConstraints;
import imcodec.constraints.v1.Constraints.Form;
import imcodec.constraints.v1.Constraints.KeyedNumber;
import imcodec.constraints.v1.Constraints.Limit;
import imcodec.constraints.v1.Constraints.Measure;
import imcodec.constraints.v1.Constraints.MessageConstraints;
import imcodec.constraints.v1.Constraints.MessageRule;
import imcodec.constraints.v1.Constraints.ProfileValue;
import imcodec.constraints.v1.Constraints.Report;
import imcodec.testee.v1.Testee;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The validator: one engine that executes the constraint declarations of Schemas/
 * (Schemas/imcodec/constraints/v1/constraints.proto), read through protobuf-java's descriptors
 * ({@link Declarations}), as docs/spec/validation.md, "Reading the declarations", describes. It walks the decoded
 * value; at every message it applies the message's limits and rule checks, then the field rules and limits of
 * each of its fields, then visits every set message field (each entry of a repeated one) the same way.
 *
 * <p>It names no limit, no value, no field a rule governs and no finding code of its own; the exceptions are the
 * three named predicates ({@link NamedPredicates}) and the two codes the documentation gives the field rules
 * {@code defined_enum} and {@code discriminator}, which declare a flag and no code. The severity of each code is
 * read from Schemas/imcodec/constraints/v1/finding_codes.json. One instance is one validation.
 */
final class Validator {
    /** The code of {@code defined_enum} (docs/spec/validation.md, "Field rules"): the declaration carries none. */
    private static final String UNKNOWN_ENUM_VALUE = "enum.unknown-value";
    /** The code of {@code discriminator} (docs/spec/validation.md, "Field rules"): the declaration carries none. */
    private static final String UNSPECIFIED_ENUM = "enum.unspecified";

    private final Declarations declarations;
    private final Declarations.Profile profile;
    /** The names of limits this validation does not apply (a form that measures them itself). */
    private final Set<String> skipped;
    private final Testee.Findings.Builder findings = Testee.Findings.newBuilder();

    private Validator(Declarations declarations, Declarations.Profile profile, Set<String> skipped) {
        this.declarations = declarations;
        this.profile = profile;
        this.skipped = skipped;
    }

    /**
     * The testee's {@code validate}: decodes the payload as every operation does (the request's limits; a payload
     * that does not decode is that failure), then answers every finding under the named profile.
     *
     * @throws Failure the payload does not decode
     * @throws BadRequest the profile is one no declaration knows
     */
    static Testee.Findings answer(Testee.ValidateRequest request, DecodingLimits limits) {
        Message message = Payloads.decode(request.getKindValue(), request.getPayload().toByteArray(), limits);
        Declarations.Profile profile = Declarations.Profile.named(request.getProfile());
        if (profile == null) {
            throw new BadRequest("unknown profile \"" + request.getProfile() + "\"; known: "
                    + Declarations.Profile.NAMES);
        }
        return validate(message, profile);
    }

    /** Every finding of a message, batch or event under a profile, in the order they were found. */
    static Testee.Findings validate(Message message, Declarations.Profile profile) {
        return validate(message, profile, Set.of());
    }

    /** Every finding of a message, batch or event under a profile but those of the limits named in skipped. */
    static Testee.Findings validate(Message message, Declarations.Profile profile, Set<String> skipped) {
        Validator run = new Validator(Declarations.of(message.getDescriptorForType()), profile, skipped);
        run.visit(Node.root(message));
        return run.findings.build();
    }

    /**
     * A declared limit applied to one number measured elsewhere, at {@code path}: a value as a document holds it
     * ({@code MEASURE_EXACT}, {@code MEASURE_NUMBER_SET}, {@code MEASURE_NUMBER_RANGE}, {@code MEASURE_VALUE}), or
     * a size ({@code MEASURE_ENCODED_BYTES}). No findings when the profile has no such rule.
     */
    static Testee.Findings measure(Limit limit, Declarations.Profile profile, long number, String path) {
        Validator run = new Validator(null, profile, Set.of());
        ProfileValue bound = Declarations.value(limit, profile);
        if (bound == null) {
            return run.findings.build();
        }
        switch (limit.getMeasure()) {
            case MEASURE_EXACT -> {
                if (number != bound.getNumber()) {
                    run.report(limit.getCode(), path, bound.getNumber(), number);
                }
            }
            case MEASURE_NUMBER_SET, MEASURE_NUMBER_RANGE -> {
                List<Long> numbers = bound.getNumbersList();
                boolean inside = limit.getMeasure() == Measure.MEASURE_NUMBER_RANGE
                        ? numbers.get(0) <= number && number <= numbers.get(1)
                        : numbers.contains(number);
                if (!inside) {
                    run.report(limit.getCode(), path, null, number);
                }
            }
            case MEASURE_VALUE, MEASURE_ENCODED_BYTES -> {
                if (number > bound.getNumber()) {
                    run.report(limit.getCode(), path, bound.getNumber(), number);
                }
            }
            default -> throw new IllegalStateException("the limit " + limit.getName() + " has the measure "
                    + limit.getMeasure() + ", which applies to no number measured elsewhere");
        }
        return run.findings.build();
    }

    /**
     * Adds a finding with its code's severity; {@code limit} and {@code actual} are null where the finding has
     * none (answered as 0, "absent", in the testee protocol).
     */
    void report(String code, String path, Long limit, Long actual) {
        findings.addFindings(Testee.Finding.newBuilder()
                .setCode(code)
                .setPath(path)
                .setSeverity(Severities.of(code))
                .setLimit(limit == null ? 0 : limit)
                .setActual(actual == null ? 0 : actual));
    }

    private ProfileValue value(Limit limit) {
        return Declarations.value(limit, profile);
    }

    // Traversal ------------------------------------------------------------------------------------------------

    /** Applies a message's declarations and its fields', then visits its set message fields. */
    private void visit(Node node) {
        Descriptor type = node.type();
        MessageConstraints constraints = declarations.message(type);
        if (constraints != null) {
            for (Limit limit : constraints.getLimitList()) {
                apply(node, null, Declarations.Applied.declared(limit));
            }
            for (MessageRule rule : constraints.getRuleList()) {
                for (Check check : rule.getCheckList()) {
                    if (node.allHold(check.getWhenList(), declarations)) {
                        check(node, check);
                    }
                }
            }
        }
        for (Declarations.Declared declared : declarations.fields(type)) {
            fieldRules(node, declared.field(), declared.constraints());
            for (Declarations.Applied applied : declarations.applied(declared.field())) {
                apply(node, declared.field(), applied);
            }
        }
        descend(node);
    }

    /** Visits every set message field of a node, each entry of a repeated one, unless its layer is too deep. */
    private void descend(Node node) {
        Message message = node.message();
        for (FieldDescriptor field : node.type().getFields()) {
            if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            String path = Node.join(node.path(), field.getJsonName());
            if (field.isRepeated()) {
                int count = message.getRepeatedFieldCount(field);
                if (count == 0 || tooDeep(node, field, path)) {
                    continue;
                }
                for (int i = 0; i < count; i++) {
                    visit(node.child((Message) message.getRepeatedField(field, i), Node.entry(path, i)));
                }
            } else if (message.hasField(field)) {
                visit(node.child((Message) message.getField(field), path));
            }
        }
    }

    /**
     * {@code MEASURE_LAYERS}: the layer of a list's entries is the number of messages of the holder's type among
     * the holder and its enclosing messages; past the limit, one finding at the list, whose entries are not
     * visited.
     */
    private boolean tooDeep(Node node, FieldDescriptor field, String path) {
        for (Declarations.Applied applied : declarations.applied(field)) {
            Limit limit = applied.limit();
            ProfileValue bound = limit.getMeasure() == Measure.MEASURE_LAYERS ? value(limit) : null;
            if (bound == null) {
                continue;
            }
            long layer = 0;
            for (Node walker = node; walker != null; walker = walker.parent()) {
                if (walker.type() == node.type()) {
                    layer++;
                }
            }
            if (layer > bound.getNumber()) {
                report(limit.getCode(), path, bound.getNumber(), layer);
                return true;
            }
        }
        return false;
    }

    // Field rules ----------------------------------------------------------------------------------------------

    /** The rules a field declares beside its limits: non_empty, range, defined_enum, discriminator, named_values. */
    private void fieldRules(Node node, FieldDescriptor field, FieldConstraints constraints) {
        Message message = node.message();
        String path = Node.join(node.path(), field.getJsonName());
        if (constraints.hasNonEmpty() && !Node.isSet(message, field)) {
            report(constraints.getNonEmpty().getCode(), path, null, null);
        }
        if (constraints.hasRange()) {
            var range = constraints.getRange();
            double value = ((Number) message.getField(field)).doubleValue();
            if (!(Double.isFinite(value) && range.getMin() <= value && value <= range.getMax())) {
                report(range.getCode(), path, (long) Math.max(Math.abs(range.getMin()), Math.abs(range.getMax())),
                        null);
            }
        }
        if (constraints.getDefinedEnum()) {
            long number = Node.number(field, message.getField(field));
            if (field.getEnumType().findValueByNumber((int) number) == null) {
                report(UNKNOWN_ENUM_VALUE, path, null, number);
            }
        }
        if (constraints.getDiscriminator() && Node.number(field, message.getField(field)) == 0
                && node.allHold(constraints.getDiscriminatorWhenList(), declarations)) {
            report(UNSPECIFIED_ENUM, path, null, 0L);
        }
        if (constraints.hasNamedValues()) {
            var named = constraints.getNamedValues();
            long number = Node.number(field, message.getField(field));
            if (declarations.enumType(named.getEnum()).findValueByNumber((int) number) == null) {
                report(named.getCode(), path, null, number);
            }
        }
    }

    // Limits ---------------------------------------------------------------------------------------------------

    /**
     * Applies one limit to a field ({@code field} null: to the message) when the profile has it, it is not a REST
     * limit, and its conditions hold: a named predicate, or what its measure says.
     */
    private void apply(Node node, FieldDescriptor field, Declarations.Applied applied) {
        Limit limit = applied.limit();
        if (!limit.getAppliesTo().isEmpty() || skipped.contains(limit.getName())) {
            return;
        }
        ProfileValue bound = value(limit);
        if (bound == null || !node.allHold(applied.when(), declarations)) {
            return;
        }
        Message message = node.message();
        String holderPath = node.path();
        String path = field == null ? holderPath : Node.join(holderPath, field.getJsonName());
        if (!limit.getPredicate().isEmpty()) {
            NamedPredicates.applyLimit(this, node, field, path, limit, bound);
            return;
        }
        switch (limit.getMeasure()) {
            case MEASURE_LAYERS -> { } // applied when the traversal reaches the list (tooDeep)
            case MEASURE_ENTRIES -> entries(node, field, path, limit, bound, applied);
            case MEASURE_ENCODED_BYTES -> encodedBytes(message, field, path, limit, bound);
            case MEASURE_PER_KEY -> perKey(node, field, path, limit, bound, applied);
            default -> {
                if (!applied.entryField().isEmpty()) {
                    for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
                        Message entry = (Message) message.getRepeatedField(field, i);
                        FieldDescriptor sub = entry.getDescriptorForType().findFieldByName(applied.entryField());
                        if (sub.getContainingOneof() != null && !entry.hasField(sub)) {
                            continue; // another member of the entry's oneof is the one set
                        }
                        measureValue(limit, bound, sub, entry.getField(sub),
                                Node.join(Node.entry(path, i), sub.getJsonName()));
                    }
                } else if (field.isRepeated()) {
                    for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
                        measureValue(limit, bound, field, message.getRepeatedField(field, i), Node.entry(path, i));
                    }
                } else if (limit.getSumWithCount() > 0) {
                    long total = amount(limit, field, message.getField(field));
                    for (String name : limit.getSumWithList()) {
                        FieldDescriptor other = node.type().findFieldByName(name);
                        total += amount(limit, other, message.getField(other));
                    }
                    if (total > bound.getNumber()) {
                        report(limit.getCode(), applied.report() == Report.REPORT_HOLDER ? holderPath : path,
                                bound.getNumber(), total);
                    }
                } else {
                    String target = applied.report() == Report.REPORT_HOLDER ? holderPath : path;
                    measureValue(limit, bound, field, message.getField(field), target);
                }
            }
        }
    }

    /**
     * What a size or count measure counts in one value: UTF-8 bytes (after the {@code after_prefix} limit's
     * prefix, and null for a value that does not start with it), UTF-16 code units, or the number.
     */
    private Long amount(Limit limit, FieldDescriptor field, Object value) {
        switch (limit.getMeasure()) {
            case MEASURE_UTF8_BYTES -> {
                if (!limit.getAfterPrefix().isEmpty()) {
                    ProfileValue prefix = value(declarations.limit(limit.getAfterPrefix()));
                    if (prefix == null || !((String) value).startsWith(prefix.getText())) {
                        return null;
                    }
                    value = ((String) value).substring(prefix.getText().length());
                }
                return (long) bytes(value).length;
            }
            case MEASURE_UTF16_UNITS -> {
                return (long) ((String) value).length();
            }
            case MEASURE_VALUE -> {
                return Node.number(field, value);
            }
            default -> throw new IllegalStateException("the limit " + limit.getName() + " is not a size");
        }
    }

    /** The bytes of a string (UTF-8) or bytes value. */
    private static byte[] bytes(Object value) {
        return value instanceof ByteString data ? data.toByteArray()
                : ((String) value).getBytes(StandardCharsets.UTF_8);
    }

    /** Applies a per-value measure to one value of {@code field} (one entry, for a repeated field). */
    private void measureValue(Limit limit, ProfileValue bound, FieldDescriptor field, Object value, String path) {
        switch (limit.getMeasure()) {
            case MEASURE_UTF8_BYTES, MEASURE_UTF16_UNITS, MEASURE_VALUE -> {
                Long measured = amount(limit, field, value);
                if (measured != null && measured > bound.getNumber()) {
                    report(limit.getCode(), path, bound.getNumber(), measured);
                }
            }
            case MEASURE_FLAG -> {
                if (limit.getCharset().isEmpty()) {
                    if (Node.isDefault(field, value)) {
                        report(limit.getCode(), path, null, null);
                    }
                    return;
                }
                String charset = limit.getCharset();
                for (byte b : bytes(value)) {
                    int octet = b & 0xff;
                    boolean inside = false;
                    for (int i = 0; i + 1 < charset.length() && !inside; i += 2) {
                        inside = charset.charAt(i) <= octet && octet <= charset.charAt(i + 1);
                    }
                    if (!inside) {
                        report(limit.getCode(), path, null, (long) octet);
                        return;
                    }
                }
            }
            case MEASURE_STRING_SET -> {
                String text = (String) value;
                if (!text.isEmpty() && !bound.getStringsList().contains(text)) {
                    report(limit.getCode(), path, null, null);
                }
            }
            case MEASURE_NUMBER_SET, MEASURE_NUMBER_RANGE -> {
                long number = Node.number(field, value);
                List<Long> numbers = bound.getNumbersList();
                boolean inside = limit.getMeasure() == Measure.MEASURE_NUMBER_RANGE
                        ? numbers.get(0) <= number && number <= numbers.get(1)
                        : numbers.contains(number);
                if (!inside) {
                    report(limit.getCode(), path, null, number);
                }
            }
            case MEASURE_PREFIX -> {
                if (!((String) value).startsWith(bound.getText())) {
                    report(limit.getCode(), path, null, null);
                }
            }
            case MEASURE_FORBIDDEN_PREFIX -> {
                if (((String) value).startsWith(bound.getText())) {
                    report(limit.getCode(), path, null, null);
                }
            }
            case MEASURE_EXACT -> {
                long number = Node.number(field, value);
                if (number != 0 && number != bound.getNumber()) {
                    report(limit.getCode(), path, bound.getNumber(), number);
                }
            }
            default -> throw new IllegalStateException("the limit " + limit.getName() + " has the measure "
                    + limit.getMeasure() + ", which applies to no single value");
        }
    }

    /**
     * {@code MEASURE_ENTRIES}: the entries for which {@code count_when} holds (read in each entry), above the
     * value; at the field, or with {@code REPORT_FIRST_EXCESS} at the first counted entry past it.
     */
    private void entries(Node node, FieldDescriptor field, String path, Limit limit, ProfileValue bound,
            Declarations.Applied applied) {
        Message message = node.message();
        List<Integer> counted = new ArrayList<>();
        for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
            // Conditions are read in message entries; without any, every entry (of any type) counts.
            if (applied.countWhen().isEmpty() || node.child((Message) message.getRepeatedField(field, i),
                    Node.entry(path, i)).allHold(applied.countWhen(), declarations)) {
                counted.add(i);
            }
        }
        long value = bound.getNumber();
        if (counted.size() <= value) {
            return;
        }
        String at = applied.report() == Report.REPORT_FIRST_EXCESS
                ? Node.entry(path, counted.get((int) value)) : path;
        report(limit.getCode(), at, value, (long) counted.size());
    }

    /**
     * {@code MEASURE_PER_KEY}: the number, or a repeated field's entry count, against the value's entry for the
     * key the {@code key} reference reads; no key or no entry, no check.
     */
    private void perKey(Node node, FieldDescriptor field, String path, Limit limit, ProfileValue bound,
            Declarations.Applied applied) {
        Object key = applied.key().isEmpty() ? null : node.value(applied.key(), declarations);
        KeyedNumber entry = null;
        for (KeyedNumber candidate : bound.getEntriesList()) {
            if (candidate.getKey().equals(key)) {
                entry = candidate;
            }
        }
        if (entry == null) {
            return;
        }
        Message message = node.message();
        long measured = field.isRepeated() ? message.getRepeatedFieldCount(field)
                : Node.number(field, message.getField(field));
        if (measured > entry.getNumber()) {
            report(limit.getCode(), path, entry.getNumber(), measured);
        }
    }

    /**
     * {@code MEASURE_ENCODED_BYTES}: the bytes of the field in its holder's canonical encoding — each entry's tag,
     * length prefix and canonical size — with the fields named in {@code exclude} ({@code Type.field}) left out of
     * the entry's direct sub-messages of that type.
     */
    private void encodedBytes(Message message, FieldDescriptor field, String path, Limit limit, ProfileValue bound) {
        List<String[]> excluded = new ArrayList<>();
        limit.getExcludeList().forEach(name -> excluded.add(name.split("\\.", 2)));
        long tag = varintSize((long) field.getNumber() << 3);
        List<Message> entries = new ArrayList<>();
        if (field.isRepeated()) {
            for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
                entries.add((Message) message.getRepeatedField(field, i));
            }
        } else if (message.hasField(field)) {
            entries.add((Message) message.getField(field));
        }
        long total = 0;
        for (Message entry : entries) {
            Message.Builder copy = null;
            for (FieldDescriptor sub : entry.getDescriptorForType().getFields()) {
                if (sub.getJavaType() != FieldDescriptor.JavaType.MESSAGE || sub.isRepeated() || !entry.hasField(sub)) {
                    continue;
                }
                Message child = (Message) entry.getField(sub);
                for (String[] exclude : excluded) {
                    if (child.getDescriptorForType().getName().equals(exclude[0])) {
                        child = child.toBuilder()
                                .clearField(child.getDescriptorForType().findFieldByName(exclude[1])).build();
                        copy = copy == null ? entry.toBuilder() : copy;
                        copy.setField(sub, child);
                    }
                }
            }
            long size = (copy == null ? entry : copy.build()).getSerializedSize();
            total += tag + varintSize(size) + size;
        }
        if (total > bound.getNumber()) {
            report(limit.getCode(), path, bound.getNumber(), total);
        }
    }

    private static long varintSize(long n) {
        long size = 1;
        while (Long.compareUnsigned(n, 0x80) >= 0) {
            n >>>= 7;
            size++;
        }
        return size;
    }

    // Message checks -------------------------------------------------------------------------------------------

    /** Applies one check of a message rule whose conditions hold, as its form says. */
    private void check(Node node, Check check) {
        Declarations d = declarations;
        String code = check.getCode();
        String at = check.getAt().isEmpty() ? null
                : check.getAt().equals(".") ? node.path() : node.pathOf(check.getAt(), d);
        List<String> fields = check.getFieldsList();
        switch (check.getForm()) {
            case FORM_ABSENT -> {
                for (String name : fields) {
                    if (!node.isSet(name, d)) {
                        continue;
                    }
                    Node.Resolved resolved = node.resolve(name, d);
                    Long actual = null;
                    if (resolved.field() == null) {
                        actual = null; // a oneof's name: no number or count of its own
                    } else if (check.getActual() == Actual.ACTUAL_COUNT) {
                        actual = (long) resolved.message().getRepeatedFieldCount(resolved.field());
                    } else if (check.getActual() == Actual.ACTUAL_VALUE) {
                        actual = Node.numberOrNull(resolved.field(), resolved.message().getField(resolved.field()));
                    }
                    report(code, at != null ? at : resolved.path(), null, actual);
                }
            }
            case FORM_PRESENT -> {
                for (String name : fields) {
                    if (!node.isSet(name, d)) {
                        report(code, at != null ? at : node.pathOf(name, d), null, null);
                    }
                }
            }
            case FORM_AT_LEAST_ONE, FORM_AT_MOST_ONE -> {
                int count = 0;
                for (String name : fields) {
                    count += node.isSet(name, d) ? 1 : 0;
                }
                boolean atLeastOne = check.getForm() == Form.FORM_AT_LEAST_ONE;
                if (atLeastOne ? count == 0 : count > 1) {
                    report(code, at != null ? at : node.path(), null, null);
                }
            }
            case FORM_EQUALS_COUNT -> {
                long number = numberAt(node, fields.get(0));
                long count = ((List<?>) node.value(fields.get(1), d)).size();
                if (number != count) {
                    report(code, orPath(at, node, fields.get(0)), count, number);
                }
            }
            case FORM_NOT_ABOVE -> {
                long value = numberAt(node, fields.get(0));
                long ceiling = numberAt(node, fields.get(1));
                if (ceiling != 0 && value > ceiling) {
                    report(code, orPath(at, node, fields.get(0)), ceiling, value);
                }
            }
            case FORM_UNIQUE -> {
                List<?> entries = (List<?>) node.value(fields.get(0), d);
                String path = node.pathOf(fields.get(0), d);
                Set<Object> seen = new HashSet<>();
                for (int i = 0; i < entries.size(); i++) {
                    Message entry = (Message) entries.get(i);
                    FieldDescriptor sub = entry.getDescriptorForType().findFieldByName(fields.get(1));
                    Object value = entry.getField(sub);
                    Long number = Node.numberOrNull(sub, value);
                    if (check.getNumbersCount() > 0 && (number == null || !check.getNumbersList().contains(number))) {
                        continue;
                    }
                    if (!seen.add(number != null ? number : value)) {
                        report(code, Node.join(Node.entry(path, i), sub.getJsonName()), null, null);
                    }
                }
            }
            case FORM_ENTRIES_PRESENT -> {
                List<?> entries = (List<?>) node.value(fields.get(0), d);
                String path = node.pathOf(fields.get(0), d);
                if (entries.isEmpty()) {
                    report(code, path, null, null);
                }
                for (int i = 0; i < entries.size(); i++) {
                    if (!node.child((Message) entries.get(i), Node.entry(path, i)).isSet(fields.get(1), d)) {
                        report(code, Node.entry(path, i), null, null);
                    }
                }
            }
            case FORM_ENTRIES_ABSENT -> {
                List<?> entries = (List<?>) node.value(fields.get(0), d);
                String path = node.pathOf(fields.get(0), d);
                for (int i = 0; i < entries.size(); i++) {
                    Node entry = node.child((Message) entries.get(i), Node.entry(path, i));
                    if (entry.allHold(check.getEntryWhenList(), d)) {
                        report(code, entry.pathOf(fields.get(1), d), null, null);
                    }
                }
            }
            case FORM_PREDICATE -> NamedPredicates.check(this, node, at != null ? at : node.path(), check);
            default -> throw new IllegalStateException("a check of " + node.type().getFullName() + " has the form "
                    + check.getForm());
        }
    }

    /** The integer a reference names (its default where it crosses an absent message). */
    private long numberAt(Node node, String ref) {
        Node.Resolved resolved = node.resolve(ref, declarations);
        return Node.number(resolved.field(), Node.valueOf(resolved.message(), resolved.field()));
    }

    /** {@code at} when it names a non-empty path, otherwise the path of the reference. */
    private String orPath(String at, Node node, String ref) {
        return at != null && !at.isEmpty() ? at : node.pathOf(ref, declarations);
    }

    // Severities -----------------------------------------------------------------------------------------------

    /**
     * The severity of every finding code, read once from Schemas/imcodec/constraints/v1/finding_codes.json under
     * the repository root.
     */
    private static final class Severities {
        private static final Map<String, String> BY_CODE = load();

        static String of(String code) {
            String severity = BY_CODE.get(code);
            if (severity == null) {
                throw new IllegalStateException("finding_codes.json does not list the code " + code);
            }
            return severity;
        }

        private static Map<String, String> load() {
            Path file = Main.repositoryRoot().resolve("Schemas/imcodec/constraints/v1/finding_codes.json");
            Map<String, String> severities = new HashMap<>();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                JsonObject root = JsonParser.parseReader(reader).getAsJsonObject();
                for (JsonElement entry : root.getAsJsonArray("codes")) {
                    JsonObject code = entry.getAsJsonObject();
                    severities.put(code.get("code").getAsString(), code.get("severity").getAsString());
                }
            } catch (IOException error) {
                throw new IllegalStateException("cannot read " + file + ": " + error);
            }
            return Map.copyOf(severities);
        }
    }
}
