package io.tickwork.client.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON parser for reading back the load tools' own {@code --json} reports: objects
 * become {@code Map<String, Object>} (insertion order kept), arrays {@code List<Object>}, strings
 * {@code String} (escapes decoded, {@code \\uXXXX} included), numbers {@code Long} when integral
 * and {@code Double} otherwise, {@code true}/{@code false} {@code Boolean}, and {@code null}
 * null. Malformed input, or anything after the value, throws {@link IllegalArgumentException}
 * with the offset. Recursive descent, linear in the input; nesting is bounded at 64 levels.
 * Stateless: each {@link #parse} call has its own cursor.
 */
public final class JsonReader {
    private static final int MAX_DEPTH = 64;
    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /** The one JSON value {@code text} holds. */
    public static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        Object v = r.value(0);
        r.skipSpace();
        if (r.i != text.length()) {
            throw r.error("unexpected text after the value");
        }
        return v;
    }

    /** The one JSON object {@code text} holds. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) v;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
        skipSpace();
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        skipSpace();
        if (peek() == '}') {
            i++;
            return m;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a field name");
            }
            String k = string();
            skipSpace();
            expect(':');
            m.put(k, value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array(int depth) {
        List<Object> a = new ArrayList<>();
        i++;
        skipSpace();
        if (peek() == ']') {
            i++;
            return a;
        }
        while (true) {
            a.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                i++;
            } else {
                expect(']');
                return a;
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++; // the opening quote
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) {
                break;
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
        throw error("unterminated string");
    }

    private Object number() {
        int from = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String t = s.substring(from, i);
        if (t.isEmpty()) {
            throw error("unexpected character '" + s.charAt(from) + "'");
        }
        try {
            if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0) {
                return Long.parseLong(t);
            }
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw error("bad number " + t);
        }
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw error("expected " + word);
        }
        i += word.length();
        return v;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void skipSpace() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + i);
    }
}
