package io.tickwork.server.client;

import java.util.Locale;

/** A minimal streaming JSON object writer for result output. Not thread safe. */
final class Json {
    private final StringBuilder sb = new StringBuilder();
    private boolean first = true;

    void begin() {
        sb.append('{');
        first = true;
    }

    void object(String name) {
        key(name);
        sb.append('{');
        first = true;
    }

    void end() {
        sb.append('}');
        first = false;
    }

    void field(String name, String value) {
        key(name);
        string(value);
    }

    void field(String name, long value) {
        key(name);
        sb.append(value);
    }

    void field(String name, double value) {
        key(name);
        if (Double.isFinite(value)) {
            sb.append(String.format(Locale.ROOT, "%.3f", value));
        } else {
            sb.append("null");
        }
    }

    void nullField(String name) {
        key(name);
        sb.append("null");
    }

    void raw(String name, String json) {
        key(name);
        sb.append(json);
    }

    private void key(String name) {
        if (!first) {
            sb.append(',');
        }
        first = false;
        string(name);
        sb.append(':');
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
