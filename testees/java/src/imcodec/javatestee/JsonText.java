package imcodec.javatestee;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON text (RFC 8259) read strictly into a tree that keeps what proto3 JSON checks need and general JSON
 * libraries drop: every member of an object in document order (duplicates included) and every number as its
 * literal text. The parser keeps an explicit stack, so nesting costs no recursion; arrays and objects nested
 * deeper than the limit are {@code json.depth} as soon as they open.
 */
final class JsonText {
    /** A JSON value. */
    sealed interface Value permits Obj, Arr, Str, Num, Bool, Null {}

    /** An object's members in document order. */
    record Obj(List<Member> members) implements Value {}

    /** One member of an object, its name as written (after unescaping). */
    record Member(String name, Value value) {}

    /** An array. */
    record Arr(List<Value> values) implements Value {}

    /** A string. */
    record Str(String text) implements Value {}

    /** A number, as its literal text. */
    record Num(String literal) implements Value {}

    /** {@code true} or {@code false}. */
    record Bool(boolean value) implements Value {}

    /** {@code null}. */
    record Null() implements Value {}

    private final String text;
    private final long maxNesting;
    private final int maxEntries;
    private int index;

    private JsonText(String text, long maxNesting, int maxEntries) {
        this.text = text;
        this.maxNesting = maxNesting;
        this.maxEntries = maxEntries;
    }

    /**
     * Parses a document.
     *
     * @param maxNesting the most arrays and objects that may nest (the outermost counts 1)
     * @param maxEntries the most entries an array keeps; later ones are parsed and dropped (no field
     *     accepts more, and a reader refuses an array at the first entry past its limit)
     * @throws Failure {@code json.syntax} or {@code json.depth}, at the root
     */
    static Value parse(String text, long maxNesting, int maxEntries) {
        return new JsonText(text, maxNesting, maxEntries).document();
    }

    private Failure syntax(String reason) {
        return new Failure("json.syntax", "", reason + " at character " + index);
    }

    /** An open array or object and the member name it waits to give a value to. */
    private static final class Open {
        final Obj object;
        final Arr array;
        String name;

        Open(Obj object, Arr array) {
            this.object = object;
            this.array = array;
        }
    }

    private Value document() {
        List<Open> stack = new ArrayList<>();
        while (true) {
            skipWhitespace();
            Value value;
            if (index >= text.length()) {
                throw syntax("the text ends where a value was expected");
            }
            char c = text.charAt(index);
            if (c == '{' || c == '[') {
                if (stack.size() + 1 > maxNesting) {
                    throw new Failure("json.depth", "",
                            "arrays and objects nest deeper than " + maxNesting);
                }
                index++;
                Open open = c == '{'
                        ? new Open(new Obj(new ArrayList<>()), null)
                        : new Open(null, new Arr(new ArrayList<>()));
                skipWhitespace();
                char close = c == '{' ? '}' : ']';
                if (index < text.length() && text.charAt(index) == close) {
                    index++;
                    value = open.object != null ? open.object : open.array;
                } else {
                    if (open.object != null) {
                        open.name = memberName();
                    }
                    stack.add(open);
                    continue;
                }
            } else {
                value = scalar(c);
            }
            // A complete value: give it to the open container, closing every container it completes.
            while (true) {
                if (stack.isEmpty()) {
                    skipWhitespace();
                    if (index != text.length()) {
                        throw syntax("text after the JSON value");
                    }
                    return value;
                }
                Open top = stack.get(stack.size() - 1);
                if (top.object != null) {
                    top.object.members().add(new Member(top.name, value));
                } else if (top.array.values().size() < maxEntries) {
                    top.array.values().add(value);
                }
                skipWhitespace();
                if (index >= text.length()) {
                    throw syntax(top.object != null
                            ? "the text ends inside an object"
                            : "the text ends inside an array");
                }
                char next = text.charAt(index);
                if (next == ',') {
                    index++;
                    if (top.object != null) {
                        skipWhitespace();
                        top.name = memberName();
                    }
                    break;
                }
                if (next != (top.object != null ? '}' : ']')) {
                    throw syntax(top.object != null ? "expected ',' or '}'" : "expected ',' or ']'");
                }
                index++;
                stack.remove(stack.size() - 1);
                value = top.object != null ? top.object : top.array;
            }
        }
    }

    /** {@code "name" :}, with the whitespace around it. */
    private String memberName() {
        if (index >= text.length() || text.charAt(index) != '"') {
            throw syntax("an object member must start with a string key");
        }
        String name = string();
        skipWhitespace();
        if (index >= text.length() || text.charAt(index) != ':') {
            throw syntax("expected ':'");
        }
        index++;
        return name;
    }

    private Value scalar(char c) {
        if (c == '"') {
            return new Str(string());
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return new Num(number());
        }
        if (text.startsWith("true", index)) {
            index += 4;
            return new Bool(true);
        }
        if (text.startsWith("false", index)) {
            index += 5;
            return new Bool(false);
        }
        if (text.startsWith("null", index)) {
            index += 4;
            return new Null();
        }
        throw syntax("unexpected character");
    }

    private void skipWhitespace() {
        while (index < text.length()) {
            char c = text.charAt(index);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            index++;
        }
    }

    /** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    private String number() {
        int start = index;
        if (text.charAt(index) == '-') {
            index++;
        }
        if (index < text.length() && text.charAt(index) == '0') {
            index++;
        } else {
            digits();
        }
        if (index < text.length() && text.charAt(index) == '.') {
            index++;
            digits();
        }
        if (index < text.length() && (text.charAt(index) == 'e' || text.charAt(index) == 'E')) {
            index++;
            if (index < text.length() && (text.charAt(index) == '+' || text.charAt(index) == '-')) {
                index++;
            }
            digits();
        }
        return text.substring(start, index);
    }

    private void digits() {
        int start = index;
        while (index < text.length() && text.charAt(index) >= '0' && text.charAt(index) <= '9') {
            index++;
        }
        if (index == start) {
            throw syntax("invalid number");
        }
    }

    private String string() {
        index++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (index >= text.length()) {
                throw syntax("the text ends inside a string");
            }
            char c = text.charAt(index++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw syntax("a control character inside a string must be escaped");
            }
            if (Character.isSurrogate(c)) {
                // The text came from UTF-8, so surrogates arrive in pairs; a lone one is not text.
                if (!Character.isHighSurrogate(c) || index >= text.length()
                        || !Character.isLowSurrogate(text.charAt(index))) {
                    throw syntax("a string is not valid UTF-8");
                }
                out.append(c).append(text.charAt(index++));
                continue;
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (index >= text.length()) {
                throw syntax("the text ends inside an escape");
            }
            char escape = text.charAt(index++);
            switch (escape) {
                case '"' -> out.append('"');
                case '\\' -> out.append('\\');
                case '/' -> out.append('/');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    char unit = hex4();
                    if (Character.isHighSurrogate(unit)) {
                        if (!text.startsWith("\\u", index)) {
                            throw syntax("a high surrogate escape without its low surrogate");
                        }
                        index += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw syntax("a high surrogate escape without its low surrogate");
                        }
                        out.append(unit).append(low);
                    } else if (Character.isLowSurrogate(unit)) {
                        throw syntax("a low surrogate escape without its high surrogate");
                    } else {
                        out.append(unit);
                    }
                }
                default -> throw syntax("invalid escape");
            }
        }
    }

    private char hex4() {
        if (text.length() - index < 4) {
            throw syntax("invalid \\u escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            char c = text.charAt(index++);
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0) {
                throw syntax("invalid \\u escape");
            }
            value = value << 4 | digit;
        }
        return (char) value;
    }
}
