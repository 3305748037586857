package io.tickwork.server.http;

/**
 * The framing of one chunked request body (RFC 9112 7.1), checked as its bytes arrive: chunk
 * sizes and extensions, each chunk's data and the line end after it, the trailer section, and the
 * empty line that ends the body. It keeps no byte of the body: the server answers without reading
 * request bodies, so what matters is where the body ends, and that it is well formed.
 *
 * <p><b>Resumable:</b> {@link RequestParser} starts one on the bytes after the head; when they end
 * mid-body, the connection's {@link PendingInput} hands it each read's bytes, and the request is
 * parsed again, once, only when the body has ended or is refused. So a body that arrives a byte or
 * a chunk at a time costs time in proportion to its length, not to its length times its chunks.
 * Any split of the same bytes over calls gives the same answer.
 *
 * <p><b>Strict</b> where a lax reading lets two parsers disagree on where a body ends (request
 * smuggling): a chunk size is hex digits only; extensions follow RFC 9112 7.1.1 to the byte
 * ({@code ;} name, optionally {@code =} a token or a quoted string, blanks only around {@code ;}
 * and {@code =}); a chunk's data is followed at once by a line end; every line
 * ends as the head's lines did (CRLF, or a bare LF in a head of bare LFs), so a bare CR, or a mix,
 * is 400. Trailer fields must be well-formed field lines (a token, a colon, no control byte in the
 * value) and are then ignored, as RFC 9112 7.1.2 allows. <b>Limit:</b> the body as sent, chunk
 * lines, data and trailers included, must end within {@code maxBody} bytes, else 413.
 *
 * <p>Cost: O(1) per byte of chunk lines and trailers, O(1) per chunk's data (skipped, not read).
 *
 * <p>Not thread safe: one request's, used by one loop or one worker.
 */
final class ChunkedBody {
    /** {@link #feed}: every byte given belongs to the body, which has not ended. */
    static final int NEED_MORE = -1;
    /** {@link #feed}: the body is refused, {@link #errorStatus} and {@link #errorDetail} say why. */
    static final int ERROR = -2;

    private static final int SIZE_FIRST = 0; // a chunk line's first byte: a hex digit
    private static final int SIZE = 1; // more hex digits, or what follows them
    private static final int SIZE_BLANK = 2; // blanks after the size: a ';' must follow
    private static final int EXT_NAME_START = 3; // after ';': blanks, then a token
    private static final int EXT_NAME = 4;
    private static final int EXT_AFTER_NAME = 5; // blanks after a name: '=' or ';' must follow
    private static final int EXT_VALUE_START = 6; // after '=': blanks, then a token or a quoted string
    private static final int EXT_TOKEN = 7;
    private static final int EXT_QUOTED = 8;
    private static final int EXT_QUOTED_PAIR = 9; // after a backslash in a quoted string
    private static final int EXT_QUOTE_END = 10; // just after a quoted string's closing quote
    private static final int EXT_AFTER_VALUE = 11; // blanks after a value: ';' must follow
    private static final int LINE_FEED = 12; // a CR was read: its LF
    private static final int DATA = 13; // the chunk's data, skipped
    private static final int DATA_END = 14; // the line end right after the data
    private static final int TRAILER_START = 15; // a trailer field's name, or the empty line that ends the body
    private static final int TRAILER_NAME = 16;
    private static final int TRAILER_VALUE = 17;
    private static final int DONE = 18;
    private static final int FAILED = 19;

    private final long maxBody;
    private final boolean bareLf;
    private int state = SIZE_FIRST;
    /** Where a line end leads, when it is a CRLF whose LF is still to come. */
    private int afterLine;
    /** The size being read on a chunk line, then the data bytes of that chunk still to come. */
    private long size;
    /** Bytes of the body given so far, framing included. */
    private long taken;
    /** Data bytes of the chunks read so far. */
    private long data;

    int errorStatus;
    String errorDetail;

    /**
     * A body after a head whose lines ended in bare LFs ({@code bareLf}) or CRLFs, which may take
     * at most {@code maxBody} bytes as sent.
     */
    ChunkedBody(int maxBody, boolean bareLf) {
        this.maxBody = maxBody;
        this.bareLf = bareLf;
    }

    /** The data bytes the body carried, its chunk lines and trailers left out; complete once it has ended. */
    long dataBytes() {
        return data;
    }

    /**
     * Reads {@code b[from, to)}, the body's bytes that follow those given before. Returns the index
     * just after the body's end if it ends there (the bytes after it are the next request's),
     * {@link #NEED_MORE} if it has not ended by {@code to}, or {@link #ERROR}: 400 (malformed
     * framing) or 413 (longer than {@code maxBody}). After an end or an error, further calls
     * answer the same.
     */
    int feed(byte[] b, int from, int to) {
        int s = state;
        if (s == FAILED) {
            return ERROR;
        }
        if (s == DONE) {
            return from;
        }
        int i = from;
        while (i < to && s != DONE && s != FAILED) {
            if (s == DATA) {
                int n = (int) Math.min(size, to - i);
                i += n;
                size -= n;
                if (size == 0) {
                    s = DATA_END;
                }
                continue;
            }
            byte c = b[i++];
            switch (s) {
                case SIZE_FIRST:
                    s = PercentDecoder.hex(c) < 0 ? fail(400, "chunk size is not a hexadecimal number") : digit(c);
                    break;
                case SIZE:
                    if (PercentDecoder.hex(c) >= 0) {
                        s = digit(c);
                    } else if (c == ';') {
                        s = EXT_NAME_START;
                    } else if (c == ' ' || c == '\t') {
                        s = SIZE_BLANK;
                    } else {
                        s = lineEnd(c, afterSize(), "chunk size is not a hexadecimal number");
                    }
                    break;
                case SIZE_BLANK:
                    s = c == ';'
                            ? EXT_NAME_START
                            : isBlank(c) ? s : fail(400, "blanks after a chunk size and no extension");
                    break;
                case EXT_NAME_START:
                    s = RequestParser.isTchar(c) ? EXT_NAME : isBlank(c) ? s : badExtension();
                    break;
                case EXT_NAME:
                case EXT_TOKEN:
                    if (!RequestParser.isTchar(c)) {
                        s = afterExtensionPart(c, s == EXT_NAME);
                    }
                    break;
                case EXT_AFTER_NAME:
                    s = c == '=' ? EXT_VALUE_START : c == ';' ? EXT_NAME_START : isBlank(c) ? s : badExtension();
                    break;
                case EXT_VALUE_START:
                    s = c == '"' ? EXT_QUOTED : RequestParser.isTchar(c) ? EXT_TOKEN : isBlank(c) ? s : badExtension();
                    break;
                case EXT_QUOTED:
                    // qdtext: HTAB, SP, VCHAR but '"' and '\\', obs-text (RFC 9110 5.6.4)
                    s = c == '"'
                            ? EXT_QUOTE_END
                            : c == '\\' ? EXT_QUOTED_PAIR : RequestParser.isControl(c) ? badExtension() : s;
                    break;
                case EXT_QUOTED_PAIR:
                    s = RequestParser.isControl(c) ? badExtension() : EXT_QUOTED;
                    break;
                case EXT_QUOTE_END:
                    s = afterExtensionPart(c, false);
                    break;
                case EXT_AFTER_VALUE:
                    s = c == ';' ? EXT_NAME_START : isBlank(c) ? s : badExtension();
                    break;
                case LINE_FEED:
                    s = c == '\n' ? afterLine : fail(400, "bare CR in a chunked body");
                    break;
                case DATA_END:
                    s = lineEnd(c, SIZE_FIRST, "chunk data longer than its size");
                    break;
                case TRAILER_START:
                    if (c == '\r' || c == '\n') {
                        s = lineEnd(c, DONE, null);
                    } else if (RequestParser.isTchar(c)) {
                        s = TRAILER_NAME;
                    } else {
                        s = fail(400, "malformed trailer field name");
                    }
                    break;
                case TRAILER_NAME:
                    if (c == ':') {
                        s = TRAILER_VALUE;
                    } else if (!RequestParser.isTchar(c)) {
                        s = fail(400, "malformed trailer field name");
                    }
                    break;
                case TRAILER_VALUE:
                    if (c == '\r' || c == '\n') {
                        s = lineEnd(c, TRAILER_START, null);
                    } else if (RequestParser.isControl(c)) {
                        s = fail(400, "control byte in a trailer field value");
                    }
                    break;
                default:
                    throw new IllegalStateException("state " + s);
            }
        }
        taken += i - from;
        if (s == DONE) {
            if (taken > maxBody) {
                s = tooLong();
            }
        } else if (s != FAILED && taken >= maxBody) {
            s = tooLong(); // not ended within maxBody bytes: no later byte can end it in time
        }
        state = s;
        return s == DONE ? i : s == FAILED ? ERROR : NEED_MORE;
    }

    /** A hex digit of the chunk size: the size so far times 16 plus it, refused once it could not fit. */
    private int digit(byte c) {
        size = size * 16 + PercentDecoder.hex(c);
        if (size > maxBody) {
            return fail(413, "a chunk of more than " + maxBody + " bytes, the most a request body may take");
        }
        return SIZE;
    }

    /** After a chunk line: its data, or the trailer section after the last chunk (size 0). */
    private int afterSize() {
        if (size == 0) {
            return TRAILER_START;
        }
        data += size;
        return DATA;
    }

    /**
     * {@code c} must end the line (else 400 with {@code otherwise}), as the head's lines ended:
     * returns {@code next}, or {@link #LINE_FEED} when {@code c} is a CR whose LF must follow.
     */
    private int lineEnd(byte c, int next, String otherwise) {
        if (c == '\r') {
            if (bareLf) {
                return fail(400, "CRLF in a chunked body after a head of bare LF line ends");
            }
            afterLine = next;
            return LINE_FEED;
        }
        if (c == '\n') {
            return bareLf ? next : fail(400, "bare LF in a chunked body after a head of CRLF line ends");
        }
        return fail(400, otherwise);
    }

    /**
     * The byte after an extension's name ({@code name}) or token value: '=' (after a name), ';',
     * blanks or the line end; anything else is malformed.
     */
    private int afterExtensionPart(byte c, boolean name) {
        if (c == '\r' || c == '\n') {
            return lineEnd(c, afterSize(), null);
        }
        if (c == ';') {
            return EXT_NAME_START;
        }
        if (name && c == '=') {
            return EXT_VALUE_START;
        }
        return isBlank(c) ? (name ? EXT_AFTER_NAME : EXT_AFTER_VALUE) : badExtension();
    }

    private int badExtension() {
        return fail(400, "malformed chunk extension");
    }

    private static boolean isBlank(byte c) {
        return c == ' ' || c == '\t';
    }

    private int fail(int status, String detail) {
        errorStatus = status;
        errorDetail = detail;
        return FAILED;
    }

    private int tooLong() {
        return fail(413, "chunked request body larger than " + maxBody + " bytes as sent");
    }
}
