package imcodec.javatestee;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The REST form's declaration, Schemas/imcodec/rest/v1/rest.json (docs/spec/rest.md), read once at start: every
 * object's keys with the model field, value form and presence of each, the element types, the envelope-only keys,
 * the aliases and what export cannot write. {@link RestImport} and {@link RestExport} read these tables; no REST key
 * of an object is written in Java.
 */
final class RestForm {
    private RestForm() {}

    /** One key of an object: its name, the model field's proto name (null for an outside key), value form. */
    record Key(String name, String field, String outside, String value, String presence, String form, String limit) {
        Key withPresence(String newPresence) {
            return new Key(name, field, outside, value, newPresence, form, limit);
        }
    }

    /** A value form: its JSON type, range and model type. */
    record ValueForm(String name, String json, Long min, Long max, String model) {}

    /** An element type: its MsgType, the elem kind (the Elem field's proto name), the form, how it maps. */
    record ElemType(String msgType, String kind, String form, String mapping, List<String> unrepresentable) {}

    static final Map<String, List<Key>> FORMS = new LinkedHashMap<>();
    /** Each form's model message, by name. */
    static final Map<String, String> MODELS = new LinkedHashMap<>();
    static final Map<String, ValueForm> VALUE_FORMS = new LinkedHashMap<>();
    static final Map<String, ElemType> ELEMS = new LinkedHashMap<>();
    static final Map<String, ElemType> ELEM_OF_KIND = new LinkedHashMap<>();
    static final Set<String> ENVELOPE_ONLY = new HashSet<>();
    static final Map<String, String> ALIASES = new LinkedHashMap<>();
    static final List<String> ELEMENT_KEYS = new ArrayList<>();
    static final List<String> LIST_KEYS = new ArrayList<>();
    static final Map<String, List<String>> UNREPRESENTABLE = new LinkedHashMap<>();

    static {
        Path path = Main.repositoryRoot().resolve("Schemas/imcodec/rest/v1/rest.json");
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException error) {
            throw new UncheckedIOException("cannot read the REST declaration " + path, error);
        }
        JsonText.Obj root = (JsonText.Obj) JsonText.parse(text, 64, Integer.MAX_VALUE);
        for (JsonText.Value entry : array(member(root, "valueForms"))) {
            JsonText.Obj form = (JsonText.Obj) entry;
            VALUE_FORMS.put(string(form, "name"), new ValueForm(string(form, "name"), string(form, "json"),
                    number(form, "min"), number(form, "max"), string(form, "model")));
        }
        ELEMENT_KEYS.addAll(strings(member(root, "elementKeys")));
        ENVELOPE_ONLY.addAll(strings(member(root, "envelopeOnlyKeys")));
        LIST_KEYS.addAll(strings(member(root, "messageListKeys")));
        for (JsonText.Member alias : ((JsonText.Obj) member(root, "aliases")).members()) {
            ALIASES.put(alias.name(), ((JsonText.Str) alias.value()).text());
        }
        for (JsonText.Member entry : ((JsonText.Obj) member(root, "unrepresentable")).members()) {
            if (!entry.name().startsWith("$")) {
                UNREPRESENTABLE.put(entry.name(), strings(entry.value()));
            }
        }
        for (JsonText.Value entry : array(member(root, "forms"))) {
            JsonText.Obj form = (JsonText.Obj) entry;
            List<Key> keys = new ArrayList<>();
            if (member(form, "keysOf") != null) {
                Set<String> required = new HashSet<>(strings(member(form, "required")));
                for (Key key : FORMS.get(string(form, "keysOf"))) {
                    keys.add(key.withPresence(required.contains(key.name()) ? "required" : "optional"));
                }
            } else {
                for (JsonText.Value k : array(member(form, "keys"))) {
                    JsonText.Obj key = (JsonText.Obj) k;
                    String presence = string(key, "presence");
                    keys.add(new Key(string(key, "key"), string(key, "field"), string(key, "outside"),
                            string(key, "value"), presence == null ? "required" : presence, string(key, "form"),
                            string(key, "limit")));
                }
            }
            FORMS.put(string(form, "name"), List.copyOf(keys));
            String model = member(form, "keysOf") != null ? MODELS.get(string(form, "keysOf")) : string(form, "model");
            MODELS.put(string(form, "name"), model);
        }
        for (JsonText.Value entry : array(member(root, "elems"))) {
            JsonText.Obj elem = (JsonText.Obj) entry;
            String mapping = string(elem, "mapping");
            JsonText.Value unrepresentable = member(elem, "unrepresentable");
            ElemType type = new ElemType(string(elem, "msgType"), string(elem, "kind"), string(elem, "form"),
                    mapping == null ? "table" : mapping, unrepresentable == null ? List.of() : strings(unrepresentable));
            ELEMS.put(type.msgType(), type);
            ELEM_OF_KIND.put(type.kind(), type);
        }
    }

    /** The key of a form whose model field is {@code field} (a proto name). */
    static Key keyOfField(String form, String field) {
        for (Key key : FORMS.get(form)) {
            if (field.equals(key.field())) {
                return key;
            }
        }
        throw new IllegalStateException("the REST form " + form + " has no key for " + field);
    }

    private static JsonText.Value member(JsonText.Obj object, String name) {
        for (JsonText.Member member : object.members()) {
            if (member.name().equals(name)) {
                return member.value();
            }
        }
        return null;
    }

    private static String string(JsonText.Obj object, String name) {
        JsonText.Value value = member(object, name);
        return value == null ? null : ((JsonText.Str) value).text();
    }

    private static Long number(JsonText.Obj object, String name) {
        JsonText.Value value = member(object, name);
        return value == null ? null : Long.parseLong(((JsonText.Num) value).literal());
    }

    private static List<JsonText.Value> array(JsonText.Value value) {
        return ((JsonText.Arr) value).values();
    }

    private static List<String> strings(JsonText.Value value) {
        List<String> out = new ArrayList<>();
        for (JsonText.Value entry : array(value)) {
            out.add(((JsonText.Str) entry).text());
        }
        return List.copyOf(out);
    }
}
