package imcodec.javatestee;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import imcodec.v1.Model;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Import of the REST form (docs/spec/rest.md): a REST document read into a Message or MessageBatch by the tables
 * of {@link RestForm}, walking the document member by member and collecting every problem in document order; the
 * first one is the import's failure.
 */
final class RestImport {
    /** A problem of the document: its code and JSON path. */
    record Problem(String code, String path, Long limit, Long observed) {}

    /** A value the document holds for a watched model field: the form's model message, the field, where. */
    record Value(String model, String field, String path, long value) {}

    /**
     * What reading a document of any shape gave: the value (a Message, or a MessageBatch when {@code batch}), the
     * key of a message list's messages, every problem in document order and the watched fields' values.
     */
    record Import(Message value, boolean batch, String listKey, List<Problem> problems, List<Value> values) {}

    /** An {@code ApnsInfo}: the ApnsPushInfo and the values of its keys that live outside it. */
    private record Apns(Message apns, Map<String, Object> outside) {}

    /** What reading an object of a form gave. */
    private record Table(Message.Builder builder, Map<String, Object> results, Set<String> present,
            Set<String> clean) {}

    private final DecodingLimits limits;
    private final List<Problem> problems = new ArrayList<>();
    /** The model fields, as {@code Model.field} (proto names), whose integer values are kept in {@code values}. */
    private final Set<String> watched;
    private final List<Value> values = new ArrayList<>();
    private String shape;
    private String listKey = RestForm.LIST_KEYS.get(0);

    private RestImport(DecodingLimits limits, Set<String> watched) {
        this.limits = limits;
        this.watched = watched;
    }

    /**
     * Reads a REST document of any shape, collecting every problem in document order and the integer values of
     * the {@code watched} model fields ({@code Model.field}, proto names) as the document holds them.
     */
    static Import inspect(String text, DecodingLimits limits, Set<String> watched) {
        RestImport reader = new RestImport(limits, watched);
        Message value = reader.document(text, null);
        return new Import(value, "batch".equals(reader.shape), reader.listKey, List.copyOf(reader.problems),
                List.copyOf(reader.values));
    }

    /**
     * Reads a REST document of a payload kind (1 message, 2 batch).
     *
     * @throws Failure the first problem in document order
     * @throws BadRequest a kind the REST form has no document for
     */
    static Message read(int kind, String text, DecodingLimits limits) {
        if (kind != 1 && kind != 2) {
            throw new BadRequest("the REST form has no document of payload kind " + kind);
        }
        RestImport reader = new RestImport(limits, Set.of());
        Message value = reader.document(text, kind == 2);
        if (!reader.problems.isEmpty()) {
            Problem first = reader.problems.get(0);
            throw new Failure(first.code(), first.path(), first.code());
        }
        return value;
    }

    private void problem(String code, String path) {
        problems.add(new Problem(code, path, null, null));
    }

    private void problem(String code, String path, long limit, long observed) {
        problems.add(new Problem(code, path, limit, observed));
    }

    private static String member(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static Descriptor descriptor(String model) {
        return Model.getDescriptor().findMessageTypeByName(model);
    }

    // -- scalars ------------------------------------------------------------------------------------------

    private Object scalar(String valueForm, JsonText.Value v, String path) {
        RestForm.ValueForm form = RestForm.VALUE_FORMS.get(valueForm);
        switch (form.json()) {
            case "string" -> {
                if (!(v instanceof JsonText.Str s)) {
                    problem("rest.type", path);
                    return null;
                }
                return "bytes".equals(form.model()) ? ByteString.copyFrom(s.text(), StandardCharsets.UTF_8) : s.text();
            }
            case "number" -> {
                if (!(v instanceof JsonText.Num n)) {
                    problem("rest.type", path);
                    return null;
                }
                double number = Double.parseDouble(n.literal());
                if (Double.isInfinite(number)) { // a literal past the largest double has no nearest double
                    problem("rest.range", path);
                    return null;
                }
                return number;
            }
            default -> {
                if (!(v instanceof JsonText.Num n) || !n.literal().matches("-?[0-9]+")) {
                    problem("rest.type", path);
                    return null;
                }
                java.math.BigInteger value = new java.math.BigInteger(n.literal());
                if (value.compareTo(java.math.BigInteger.valueOf(form.min())) < 0
                        || value.compareTo(java.math.BigInteger.valueOf(form.max())) > 0) {
                    problem("rest.range", path);
                    return null;
                }
                return value.longValue();
            }
        }
    }

    // -- objects ------------------------------------------------------------------------------------------

    private record Walk(Map<String, Object> results, Set<String> present, Set<String> clean) {}

    private Walk members(JsonText.Obj obj, String path, Map<String, BiFunction<JsonText.Value, String, Object>> handlers,
            Set<String> skip, Map<String, String> aliases) {
        Set<String> seen = new HashSet<>();
        Set<String> present = new HashSet<>();
        Set<String> clean = new HashSet<>();
        Map<String, Object> results = new HashMap<>();
        Map<String, String> lower = new HashMap<>();
        for (String k : handlers.keySet()) {
            lower.put(k.toLowerCase(Locale.ROOT), k);
        }
        for (String k : aliases.keySet()) {
            lower.put(k.toLowerCase(Locale.ROOT), k);
        }
        for (JsonText.Member m : obj.members()) {
            String key = m.name();
            String mpath = member(path, key);
            String canonical = aliases.getOrDefault(key, key);
            if (!seen.add(canonical)) {
                problem("rest.duplicate-key", mpath);
                continue;
            }
            if (handlers.containsKey(canonical)) {
                present.add(canonical);
                int before = problems.size();
                results.put(canonical, handlers.get(canonical).apply(m.value(), mpath));
                if (problems.size() == before) {
                    clean.add(canonical);
                }
            } else if (skip.contains(key)) {
                continue;
            } else if (lower.containsKey(key.toLowerCase(Locale.ROOT))) {
                problem("rest.key-case", mpath);
                String known = lower.get(key.toLowerCase(Locale.ROOT));
                present.add(aliases.getOrDefault(known, known));
            } else {
                problem("rest.unknown-key", mpath);
            }
        }
        return new Walk(results, present, clean);
    }

    private boolean isObject(JsonText.Value v, String path) {
        if (!(v instanceof JsonText.Obj)) {
            problem("rest.type", path);
            return false;
        }
        return true;
    }

    private boolean isArray(JsonText.Value v, String path) {
        if (!(v instanceof JsonText.Arr)) {
            problem("rest.type", path);
            return false;
        }
        return true;
    }

    private boolean within(JsonText.Value v, String path, String code, long limit) {
        int count = ((JsonText.Arr) v).values().size();
        if (count > limit) {
            problem(code, path, limit, count);
            return false;
        }
        return true;
    }

    // -- documents ----------------------------------------------------------------------------------------

    /** The value of a document of the shape asked for ({@code batch}), or of any shape when it is null. */
    private Message document(String text, Boolean batch) {
        JsonText.Value root;
        int size = text.getBytes(StandardCharsets.UTF_8).length;
        if (size > limits.maxDocumentBytes) {
            problem("limit.document-size", "", limits.maxDocumentBytes, size);
            return null;
        }
        try {
            long widest = Math.max(limits.maxElems, Math.max(limits.maxRepeated, limits.maxBatchMessages));
            root = JsonText.parse(text, maxNesting(), (int) Math.min(widest + 1, 1 << 30));
        } catch (Failure failure) {
            if (failure.code.equals("json.depth")) {
                // The first container past the limit is one level deeper than allowed.
                problem(failure.code, "", maxNesting(), maxNesting() + 1);
            } else {
                problem(failure.code, "");
            }
            return null;
        }
        String shape;
        if (root instanceof JsonText.Obj obj) {
            boolean hasList = false;
            boolean hasBody = false;
            for (JsonText.Member m : obj.members()) {
                hasList |= RestForm.LIST_KEYS.contains(m.name());
                hasBody |= m.name().equals("MsgBody");
            }
            shape = hasList && !hasBody ? "batch" : "message";
        } else if (root instanceof JsonText.Arr) {
            shape = "body";
        } else {
            problem("rest.type", "");
            return null;
        }
        this.shape = shape;
        if (batch != null && batch != shape.equals("batch")) {
            problem("rest.type", "");
            return null;
        }
        return switch (shape) {
            case "body" -> {
                Model.Message.Builder message = Model.Message.newBuilder();
                List<Message> elems = body(root, "MsgBody", 0);
                if (elems != null) {
                    for (Message elem : elems) {
                        if (elem != null) {
                            message.addElems((Model.Elem) elem);
                        }
                    }
                }
                yield message.build();
            }
            case "message" -> message((JsonText.Obj) root, "", 0, "message");
            default -> messageList((JsonText.Obj) root);
        };
    }

    /**
     * The JSON nesting a REST document may reach (docs/spec/rest.md): a merger layer takes five levels (message,
     * MsgBody, element, MsgContent, MsgList), eight per layer leave room for push-info objects.
     */
    private long maxNesting() {
        return (limits.maxDepth + 1) * 8 + 8;
    }

    private Message messageList(JsonText.Obj obj) {
        RestForm.Key groupKey = RestForm.keyOfField("message", "group_id");
        List<Message> messages = new ArrayList<>();
        Map<String, BiFunction<JsonText.Value, String, Object>> handlers = new HashMap<>();
        handlers.put(groupKey.name(), (v, p) -> scalar(groupKey.value(), v, p));
        for (String listKey : RestForm.LIST_KEYS) {
            handlers.put(listKey, (v, path) -> {
                if (!isArray(v, path) || !within(v, path, "limit.batch-messages", limits.maxBatchMessages)) {
                    return null;
                }
                List<JsonText.Value> entries = ((JsonText.Arr) v).values();
                for (int i = 0; i < entries.size(); i++) {
                    String p = path + "[" + i + "]";
                    if (isObject(entries.get(i), p)) {
                        messages.add(message((JsonText.Obj) entries.get(i), p, 0, "message"));
                    }
                }
                return null;
            });
        }
        Walk walk = members(obj, "", handlers, RestForm.ENVELOPE_ONLY, Map.of());
        for (JsonText.Member m : obj.members()) {
            if (RestForm.LIST_KEYS.contains(m.name()) && walk.present().contains(m.name())) {
                listKey = m.name();
                break;
            }
        }
        Object group = walk.results().get(groupKey.name());
        Model.MessageBatch.Builder batch = Model.MessageBatch.newBuilder();
        for (Message m : messages) {
            Model.Message message = (Model.Message) m;
            if (group instanceof String g && !g.isEmpty() && message.getGroupId().isEmpty()) {
                message = message.toBuilder().setGroupId(g).build();
            }
            batch.addMessages(message);
        }
        return batch.build();
    }

    private BiFunction<JsonText.Value, String, Object> handler(RestForm.Key key, int layer) {
        return switch (key.value()) {
            case "body" -> (v, p) -> body(v, p, layer);
            case "object" -> (v, p) -> object(key.form(), v, p, layer);
            case "objects" -> (v, p) -> objects(key, v, p, layer);
            case "strings" -> (v, p) -> strings(key, v, p);
            default -> (v, p) -> scalar(key.value(), v, p);
        };
    }

    private Table table(String form, JsonText.Obj obj, String path, int layer, Set<String> skip,
            Map<String, String> aliases, Map<String, BiFunction<JsonText.Value, String, Object>> special) {
        List<RestForm.Key> keys = RestForm.FORMS.get(form);
        Map<String, BiFunction<JsonText.Value, String, Object>> handlers = new HashMap<>();
        for (RestForm.Key k : keys) {
            handlers.put(k.name(), special.containsKey(k.name()) ? special.get(k.name()) : handler(k, layer));
        }
        Walk walk = members(obj, path, handlers, skip, aliases);
        if (!watched.isEmpty()) {
            String model = RestForm.MODELS.get(form);
            for (RestForm.Key k : keys) {
                if (walk.clean().contains(k.name()) && watched.contains(model + "." + k.field())
                        && walk.results().get(k.name()) instanceof Long n) {
                    values.add(new Value(model, k.field(), member(path, k.name()), n));
                }
            }
        }
        boolean inUse = false;
        for (RestForm.Key k : keys) {
            inUse |= k.presence().equals("group") && walk.present().contains(k.name());
        }
        for (RestForm.Key k : keys) {
            boolean needed = k.presence().equals("required") || (k.presence().equals("group") && inUse);
            if (needed && !walk.present().contains(k.name())) {
                problem("rest.missing-key", member(path, k.name()));
            }
        }
        Descriptor type = descriptor(RestForm.MODELS.get(form));
        Message.Builder builder = prototypeBuilder(type);
        for (RestForm.Key k : keys) {
            Object value = walk.results().get(k.name());
            if (value != null && k.field() != null) {
                set(builder, type.findFieldByName(k.field()), value);
            }
        }
        return new Table(builder, walk.results(), walk.present(), walk.clean());
    }

    private static Message.Builder prototypeBuilder(Descriptor type) {
        for (Message prototype : List.<Message>of(Model.Message.getDefaultInstance(),
                Model.OfflinePushInfo.getDefaultInstance(), Model.AndroidPushInfo.getDefaultInstance(),
                Model.ApnsPushInfo.getDefaultInstance(), Model.Elem.getDefaultInstance(),
                Model.ImageLevel.getDefaultInstance())) {
            if (prototype.getDescriptorForType() == type) {
                return prototype.newBuilderForType();
            }
        }
        FieldDescriptor kind = Model.Elem.getDescriptor().getFields().stream()
                .filter(f -> f.getMessageType() == type).findFirst()
                .orElseThrow(() -> new IllegalStateException("no model message " + type.getFullName()));
        return Model.Elem.newBuilder().newBuilderForField(kind);
    }

    private static void set(Message.Builder builder, FieldDescriptor field, Object value) {
        if (value instanceof List<?> list) {
            for (Object entry : list) {
                if (entry != null) {
                    builder.addRepeatedField(field, entry);
                }
            }
            return;
        }
        if (value instanceof Long n) {
            switch (field.getJavaType()) {
                case INT -> builder.setField(field, (int) n.longValue());
                case ENUM -> builder.setField(field, field.getEnumType().findValueByNumberCreatingIfUnknown((int) n.longValue()));
                default -> builder.setField(field, n);
            }
            return;
        }
        if (value instanceof Apns apns) {
            if (!apns.apns().equals(apns.apns().getDefaultInstanceForType())) {
                builder.setField(field, apns.apns());
            }
            return;
        }
        builder.setField(field, value);
    }

    private Message message(JsonText.Obj obj, String path, int layer, String form) {
        return table(form, obj, path, layer, RestForm.ENVELOPE_ONLY, RestForm.ALIASES, Map.of()).builder().build();
    }

    private Object object(String form, JsonText.Value v, String path, int layer) {
        if (!isObject(v, path)) {
            return null;
        }
        Table table = table(form, (JsonText.Obj) v, path, layer, Set.of(), Map.of(), Map.of());
        Message built = table.builder().build();
        if (form.equals("apns")) {
            Map<String, Object> outside = new HashMap<>();
            for (RestForm.Key k : RestForm.FORMS.get(form)) {
                if (k.outside() != null && table.results().get(k.name()) != null) {
                    outside.put(k.outside(), table.results().get(k.name()));
                }
            }
            return new Apns(built, outside);
        }
        if (form.equals("offlinePush")) {
            // The outside keys of ApnsInfo (its Sound) are fields of OfflinePushInfo.
            Message.Builder push = built.toBuilder();
            for (Object result : table.results().values()) {
                if (result instanceof Apns apns) {
                    for (Map.Entry<String, Object> entry : apns.outside().entrySet()) {
                        String field = entry.getKey().substring(entry.getKey().indexOf('.') + 1);
                        set(push, push.getDescriptorForType().findFieldByName(field), entry.getValue());
                    }
                }
            }
            built = push.build();
        }
        // An object whose keys all hold defaults is read as absent.
        return built.equals(built.getDefaultInstanceForType()) ? null : built;
    }

    private Object objects(RestForm.Key key, JsonText.Value v, String path, int layer) {
        if (!isArray(v, path)) {
            return null;
        }
        boolean messages = key.form().equals("forwardedMessage");
        if (messages && layer + 1 > limits.maxDepth) {
            problem("limit.depth", path, limits.maxDepth, layer + 1);
            return null;
        }
        if (!within(v, path, "limit.repeated", limits.maxRepeated)) {
            return null;
        }
        List<Message> out = new ArrayList<>();
        List<JsonText.Value> entries = ((JsonText.Arr) v).values();
        for (int i = 0; i < entries.size(); i++) {
            String p = path + "[" + i + "]";
            if (!isObject(entries.get(i), p)) {
                continue;
            }
            JsonText.Obj entry = (JsonText.Obj) entries.get(i);
            out.add(messages ? message(entry, p, layer + 1, key.form())
                    : table(key.form(), entry, p, layer, Set.of(), Map.of(), Map.of()).builder().build());
        }
        return out;
    }

    private Object strings(RestForm.Key key, JsonText.Value v, String path) {
        if (!isArray(v, path) || !within(v, path, "limit.repeated", limits.maxRepeated)) {
            return null;
        }
        List<Object> out = new ArrayList<>();
        List<JsonText.Value> entries = ((JsonText.Arr) v).values();
        for (int i = 0; i < entries.size(); i++) {
            out.add(scalar("string", entries.get(i), path + "[" + i + "]"));
        }
        return out;
    }

    private List<Message> body(JsonText.Value v, String path, int layer) {
        if (!isArray(v, path) || !within(v, path, "limit.elems", limits.maxElems)) {
            return null;
        }
        List<Message> out = new ArrayList<>();
        List<JsonText.Value> entries = ((JsonText.Arr) v).values();
        for (int i = 0; i < entries.size(); i++) {
            out.add(elem(entries.get(i), path + "[" + i + "]", layer));
        }
        return out;
    }

    private Message elem(JsonText.Value v, String path, int layer) {
        if (!isObject(v, path)) {
            return null;
        }
        String typeKey = RestForm.ELEMENT_KEYS.get(0);
        String contentKey = RestForm.ELEMENT_KEYS.get(1);
        RestForm.ElemType found = null;
        for (JsonText.Member m : ((JsonText.Obj) v).members()) {
            if (m.name().equals(typeKey)) {
                if (m.value() instanceof JsonText.Str s) {
                    found = RestForm.ELEMS.get(s.text());
                }
                break;
            }
        }
        RestForm.ElemType elem = found;
        Map<String, BiFunction<JsonText.Value, String, Object>> handlers = new HashMap<>();
        handlers.put(typeKey, (x, p) -> {
            if (scalar("string", x, p) != null && !RestForm.ELEMS.containsKey(((JsonText.Str) x).text())) {
                problem("rest.msg-type", p);
            }
            return null;
        });
        handlers.put(contentKey, (x, p) -> {
            if (elem == null) {
                isObject(x, p);
                return null;
            }
            if (!isObject(x, p)) {
                return null;
            }
            if (elem.form().equals("relay")) {
                return relay((JsonText.Obj) x, p, layer);
            }
            return table(elem.form(), (JsonText.Obj) x, p, layer, Set.of(), Map.of(), Map.of()).builder().build();
        });
        Walk walk = members((JsonText.Obj) v, path, handlers, Set.of(), Map.of());
        for (String key : RestForm.ELEMENT_KEYS) {
            if (!walk.present().contains(key)) {
                problem("rest.missing-key", member(path, key));
            }
        }
        if (elem == null) {
            return null;
        }
        FieldDescriptor kind = Model.Elem.getDescriptor().findFieldByName(elem.kind());
        Object content = walk.results().get(contentKey);
        Model.Elem.Builder out = Model.Elem.newBuilder();
        out.setField(kind, content != null ? content : out.newBuilderForField(kind).build());
        return out.build();
    }

    /** The relay's rules beyond its table (docs/spec/rest.md, form relay). */
    private Message relay(JsonText.Obj v, String path, int layer) {
        RestForm.Key listKey = RestForm.keyOfField("relay", "messages");
        RestForm.Key jsonKey = RestForm.keyOfField("relay", "json_msg_key");
        RestForm.Key numKey = RestForm.keyOfField("relay", "msg_num");
        long[] listLength = {-1};
        Map<String, BiFunction<JsonText.Value, String, Object>> special = new HashMap<>();
        special.put(listKey.name(), (x, p) -> {
            if (x instanceof JsonText.Arr a && layer + 1 <= limits.maxDepth && a.values().size() <= limits.maxRepeated) {
                listLength[0] = a.values().size(); // MsgNum is compared with the number of entries, whatever they hold
            }
            return objects(listKey, x, p, layer);
        });
        special.put(jsonKey.name(), (x, p) -> {
            Object value = scalar(jsonKey.value(), x, p);
            if ("".equals(value)) { // names no stored list
                problem("rest.range", p);
                return null;
            }
            return value;
        });
        Table table = table("relay", v, path, layer, Set.of(), Map.of(), special);
        Set<String> present = table.present();
        if (!present.contains(listKey.name()) && !present.contains(jsonKey.name())) {
            problem("rest.missing-key", member(path, listKey.name()));
        }
        if (present.contains(listKey.name()) && present.contains(jsonKey.name())) {
            problem("rest.relay-list-and-key", path);
        }
        if (table.clean().contains(numKey.name()) && listLength[0] >= 0
                && (Long) table.results().get(numKey.name()) != listLength[0]) {
            problem("rest.relay-msg-num", member(path, numKey.name()));
        }
        return table.builder().build();
    }
}
