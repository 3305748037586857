package io.tickwork.client.common;

import java.util.Locale;

/**
 * A minimal streaming writer of one JSON object, for the load tools' {@code --json} reports:
 * nested objects, arrays of objects, string, integer and decimal fields (3 decimals; NaN and
 * infinities as {@code null}), strings escaped per RFC 8259 (so the output has no line break).
 * No validation of nesting: the caller pairs {@link #object}/{@link #begin}/{@link #element}
 * with {@link #end} and {@link #array} with {@link #endArray}. Not thread safe.
 *
 * <p>Why not Jackson, which the project's tests and report tool read JSON with: every {@code idle}
 * child process writes its report with this class, and loading Jackson in a child costs about
 * 13 MB of resident memory, more than 10,000 idle connections' worth of the child's own state
 * ({@code docs/clients.md}). {@link JsonReader} reads back only what this class writes.
 */
public final class JsonWriter {
    private final StringBuilder sb = new StringBuilder();
    private boolean first = true;

    public void begin() {
        sb.append('{');
        first = true;
    }

    public void object(String name) {
        key(name);
        sb.append('{');
        first = true;
    }

    /** {@code "name":[}; its elements are {@link #element} ... {@link #end}, then {@link #endArray}. */
    public void array(String name) {
        key(name);
        sb.append('[');
        first = true;
    }

    /** An object element of the open array. */
    public void element() {
        if (!first) {
            sb.append(',');
        }
        sb.append('{');
        first = true;
    }

    public void endArray() {
        sb.append(']');
        first = false;
    }

    public void end() {
        sb.append('}');
        first = false;
    }

    public void field(String name, String value) {
        key(name);
        string(value);
    }

    public void field(String name, long value) {
        key(name);
        sb.append(value);
    }

    public void field(String name, double value) {
        key(name);
        if (Double.isFinite(value)) {
            sb.append(String.format(Locale.ROOT, "%.3f", value));
        } else {
            sb.append("null");
        }
    }

    public void nullField(String name) {
        key(name);
        sb.append("null");
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
