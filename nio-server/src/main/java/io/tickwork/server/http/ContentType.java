package io.tickwork.server.http;

import java.nio.charset.StandardCharsets;

/** A media type with its {@code Content-Type} header line encoded once. Immutable. */
public final class ContentType {
    public static final ContentType JSON = new ContentType("application/json");
    public static final ContentType HTML = new ContentType("text/html; charset=utf-8");
    public static final ContentType JAVASCRIPT = new ContentType("text/javascript; charset=utf-8");
    public static final ContentType CSS = new ContentType("text/css; charset=utf-8");
    public static final ContentType TEXT = new ContentType("text/plain; charset=utf-8");
    public static final ContentType SVG = new ContentType("image/svg+xml");

    final byte[] headerLine;
    private final String value;

    public ContentType(String value) {
        if (value.isEmpty() || value.chars().anyMatch(c -> c < 0x20 || c > 0x7E)) {
            throw new IllegalArgumentException("content type must be non-empty printable ASCII: " + value);
        }
        this.value = value;
        this.headerLine = ("Content-Type: " + value + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String toString() {
        return value;
    }
}
