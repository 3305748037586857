package io.tickwork.server.http;

/** Percent-decoding (RFC 3986) of request-target bytes into UTF-8 bytes, validating the result. Stateless. */
final class PercentDecoder {
    private PercentDecoder() {}

    /**
     * Decodes {@code src[from, to)} into {@code dst}. Returns the length, -1 if malformed (bad
     * escape or invalid UTF-8), -2 if {@code dst} is too small. With {@code plusIsSpace}, {@code +}
     * decodes to a space (query strings, HTML forms).
     */
    static int decode(byte[] src, int from, int to, byte[] dst, boolean plusIsSpace) {
        int n = 0;
        for (int i = from; i < to; i++) {
            byte b = src[i];
            if (b == '%') {
                if (i + 2 >= to) {
                    return -1;
                }
                int hi = hex(src[i + 1]), lo = hex(src[i + 2]);
                if (hi < 0 || lo < 0) {
                    return -1;
                }
                b = (byte) (hi << 4 | lo);
                i += 2;
            } else if (b == '+' && plusIsSpace) {
                b = ' ';
            }
            if (n == dst.length) {
                return -2;
            }
            dst[n++] = b;
        }
        return validUtf8(dst, n) ? n : -1;
    }

    /** The value of hex digit {@code c}, or -1. */
    static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Well-formed UTF-8 (no overlongs, no surrogates, at most U+10FFFF), no NUL. */
    static boolean validUtf8(byte[] b, int len) {
        int i = 0;
        while (i < len) {
            int c = b[i] & 0xFF;
            if (c == 0) {
                return false;
            }
            if (c < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3;
                min = 0x10000;
            } else {
                return false;
            }
            if (i + need >= len) {
                return false;
            }
            int cp = c & (0x3F >> need);
            for (int k = 1; k <= need; k++) {
                int cc = b[i + k] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return false;
                }
                cp = cp << 6 | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return false;
            }
            i += need + 1;
        }
        return true;
    }
}
