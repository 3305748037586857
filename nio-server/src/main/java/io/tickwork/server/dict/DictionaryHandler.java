package io.tickwork.server.dict;

import io.tickwork.server.http.ContentType;
import io.tickwork.server.http.HttpHandler;
import io.tickwork.server.http.HttpRequest;
import io.tickwork.server.http.HttpResponse;
import io.tickwork.server.http.ServerStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The dictionary's HTTP routes:
 * <ul>
 *   <li>{@code GET /d/{word}}: the word's senses as JSON; inflected forms resolve to their lemma;
 *       404 with close words (the longest prefix of the query that has any) when unknown.</li>
 *   <li>{@code GET /s/{prefix}?limit=N}: words starting with the prefix (1 &lt;= N &lt;= 1000, default 10).</li>
 *   <li>{@code GET /}, {@code /app.js}, {@code /style.css}, {@code /favicon.svg}: the lookup page, from the jar.</li>
 *   <li>{@code GET /stats}: server counters; {@code GET /license}: the WordNet licence.</li>
 * </ul>
 * Word and prefix are percent-decoded UTF-8, case-insensitive, {@code '_'} = space.
 *
 * <p>Cost: a lookup is two index searches in the mapped file (the lemmas and the exception lists;
 * a few more for the detachment rules) and a copy of the senses'
 * bytes into the response; each thread keeps the bodies of recent {@code /d} answers
 * ({@link WordBodyCache}, 256 words by default), so a hot word is one hash and one copy. Once
 * the cache is warm, no per-request allocation on {@code /d} and {@code /s} except the path.
 * Thread safe: stateless apart from per-thread scratch arrays and caches.
 */
public final class DictionaryHandler implements HttpHandler {
    private static final int MAX_LIMIT = 1000;
    /** Default {@link #DictionaryHandler(Dictionary, Supplier, int) cachedWords}: slots per thread. */
    public static final int DEFAULT_CACHED_WORDS = 256;
    /** Most {@code cachedWords}: a full cache of this many slots takes about 68 MB per thread. */
    public static final int MAX_CACHED_WORDS = 4096;
    /**
     * Largest {@code /d} body the per-thread cache keeps, in bytes: enough for all 335 common words
     * of the bench's built-in list (median 1,358 B, largest "break" 12,963 B; 4 KB would leave out
     * 16 of them, the busiest verbs among them).
     */
    static final int MAX_CACHED_BODY = 16 * 1024;

    private final Dictionary dict;
    private final ByteBuffer file;
    private final byte[] indexHtml, appJs, styleCss, favicon, license;
    private final ThreadLocal<Scratch> scratch;
    /** Counters for {@code /stats}, or null for those of the server that received the request. */
    private final Supplier<ServerStats> stats;

    /** Per-thread work arrays and body cache (a handler serves all loops at once). */
    private static final class Scratch {
        final WordBodyCache cache;
        final byte[] decoded = new byte[Dictionary.MAX_QUERY * 4];
        final byte[] norm = new byte[Dictionary.MAX_QUERY + 1];
        final byte[] morph = new byte[Dictionary.MAX_QUERY + 8];
        final byte[] key = new byte[1024];
        final int[] ids = new int[8];
        final int[] pos = new int[1];
        final int[] synsetPos = new int[1];

        Scratch(int cachedWords) {
            this.cache = cachedWords == 0 ? null : new WordBodyCache(cachedWords, MAX_CACHED_BODY);
        }
    }

    /** Routes over {@code dict}; {@code /stats} reports the server that received the request. */
    public DictionaryHandler(Dictionary dict) {
        this(dict, null);
    }

    /**
     * Routes over {@code dict}; {@code /stats} reports {@code stats} instead of the server that
     * received the request (a side listener reporting a main one's counters).
     */
    public DictionaryHandler(Dictionary dict, Supplier<ServerStats> stats) {
        this(dict, stats, DEFAULT_CACHED_WORDS);
    }

    /**
     * As {@link #DictionaryHandler(Dictionary, Supplier)}, with {@code cachedWords} slots per
     * thread for the bodies of answered {@code /d} lookups (0, or a power of two from 2 to
     * {@link #MAX_CACHED_WORDS}; 0: no cache, every request searches the file). A slot holds one
     * body of at most 16 KB and its key, about 16.7 KB with their array headers, so a thread's
     * cache stays under {@code cachedWords × 16.7 KB} (4.3 MB for the default 256), and the
     * server's under that times its handler threads. The cache only saves work: the dictionary
     * cannot change while open, so a cached body is the one a lookup would produce.
     */
    public DictionaryHandler(Dictionary dict, Supplier<ServerStats> stats, int cachedWords) {
        if (!cachedWordsAllowed(cachedWords)) {
            throw new IllegalArgumentException(
                    "cachedWords must be 0 or a power of two from 2 to " + MAX_CACHED_WORDS + ": " + cachedWords);
        }
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(cachedWords));
        this.dict = Objects.requireNonNull(dict, "dict");
        this.stats = stats;
        this.file = dict.file();
        this.indexHtml = resource("index.html");
        this.appJs = resource("app.js");
        this.styleCss = resource("style.css");
        this.favicon = resource("favicon.svg");
        this.license = dict.license().getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code n} is a valid {@code cachedWords}: 0, or a power of two from 2 to {@link #MAX_CACHED_WORDS}. */
    public static boolean cachedWordsAllowed(int n) {
        return n == 0 || (n >= 2 && n <= MAX_CACHED_WORDS && Integer.bitCount(n) == 1);
    }

    private static byte[] resource(String name) {
        try (InputStream in = DictionaryHandler.class.getResourceAsStream("/io/tickwork/server/web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("web asset missing from the class path: " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void handle(HttpRequest req, HttpResponse res) {
        if (req.pathStartsWith("/d/")) {
            word(req, res);
        } else if (req.pathStartsWith("/s/")) {
            suggest(req, res);
        } else if (req.pathEquals("/") || req.pathEquals("/index.html")) {
            asset(res, ContentType.HTML, indexHtml);
        } else if (req.pathEquals("/app.js")) {
            asset(res, ContentType.JAVASCRIPT, appJs);
        } else if (req.pathEquals("/style.css")) {
            asset(res, ContentType.CSS, styleCss);
        } else if (req.pathEquals("/favicon.svg") || req.pathEquals("/favicon.ico")) {
            asset(res, ContentType.SVG, favicon);
        } else if (req.pathEquals("/stats")) {
            stats(req, res);
        } else if (req.pathEquals("/license")) {
            res.contentType(ContentType.TEXT).append(license);
        } else {
            error(res, 404, "no such route; try /d/{word}, /s/{prefix}, /stats, /license or /");
        }
    }

    private static void asset(HttpResponse res, ContentType type, byte[] body) {
        res.contentType(type).header("Cache-Control", "no-cache").append(body);
    }

    private static void error(HttpResponse res, int status, String message) {
        res.status(status).contentType(ContentType.JSON);
        res.appendAscii("{\"status\":")
                .appendInt(status)
                .appendAscii(",\"error\":")
                .appendJsonString(message)
                .append((byte) '}');
    }

    /** Decodes and normalizes the path after {@code skip} bytes into s.norm; the length, or -1 after writing a 400. */
    private static int query(HttpRequest req, HttpResponse res, int skip, Scratch s, boolean prefix) {
        int d = req.decodePath(skip, s.decoded);
        if (d == -1) {
            error(res, 400, "malformed percent-encoding, invalid UTF-8 or NUL in the path");
            return -1;
        }
        // the limit is on what the client sent, decoded: normalizing may shorten it
        int n = d < 0 || d > Dictionary.MAX_QUERY ? -1 : Dictionary.normalize(s.decoded, 0, d, s.norm, prefix);
        if (n < 0 || n > Dictionary.MAX_QUERY) {
            error(res, 400, (prefix ? "prefix" : "word") + " longer than " + Dictionary.MAX_QUERY + " bytes");
            return -1;
        }
        return n;
    }

    private void word(HttpRequest req, HttpResponse res) {
        Scratch s = scratch.get();
        int n = query(req, res, 3, s, false);
        if (n < 0) {
            return;
        }
        if (n == 0) {
            error(res, 400, "no word: /d/{word}"); // nothing to look up, not a word missing from WordNet
            return;
        }
        WordBodyCache cache = s.cache;
        int set = 0;
        if (cache != null) {
            set = cache.set(s.norm, n);
            int slot = cache.find(set, s.norm, n);
            if (slot >= 0) {
                res.contentType(ContentType.JSON).append(cache.body(slot), 0, cache.length(slot));
                return;
            }
        }
        int found = dict.resolve(s.norm, n, s.ids, s.morph);
        if (found == 0) {
            res.status(404).contentType(ContentType.JSON);
            res.appendAscii("{\"query\":")
                    .appendJsonString(s.norm, 0, n)
                    .appendAscii(",\"error\":\"not found\",\"suggestions\":[");
            closeWords(s, n, res);
            res.appendAscii("]}");
            return;
        }
        res.contentType(ContentType.JSON);
        int start = res.length();
        int len = dict.copyWord(s.ids[0], s.key, 0);
        res.appendAscii("{\"word\":").appendJsonString(s.key, 0, len);
        res.appendAscii(",\"query\":").appendJsonString(s.norm, 0, n);
        if (found > 1) {
            res.appendAscii(",\"forms\":[");
            for (int i = 0; i < found; i++) {
                if (i > 0) {
                    res.append((byte) ',');
                }
                int l = dict.copyWord(s.ids[i], s.key, 0);
                res.appendJsonString(s.key, 0, l);
            }
            res.append((byte) ']');
        }
        res.appendAscii(",\"senses\":[");
        boolean first = true;
        for (int i = 0; i < found; i++) {
            first = senses(s.ids[i], s, res, first);
        }
        res.appendAscii("]}");
        if (cache != null) {
            cache.put(set, s.norm, n, res, start);
        }
    }

    /** The longest prefix of the query with any words; up to 10 of them. */
    private void closeWords(Scratch s, int n, HttpResponse res) {
        for (int k = n; k > 0; k--) {
            long range = dict.prefixRange(s.norm, 0, k);
            int from = (int) (range >>> 32), to = (int) range;
            if (from < to) {
                list(s, from, Math.min(to, from + 10), res);
                return;
            }
        }
    }

    private void list(Scratch s, int from, int to, HttpResponse res) {
        for (int i = from; i < to; i++) {
            if (i > from) {
                res.append((byte) ',');
            }
            int l = dict.copyWord(i, s.key, 0);
            res.appendJsonString(s.key, 0, l);
        }
    }

    /** Appends word {@code id}'s senses, JSON objects separated by commas; returns whether none was written yet. */
    private boolean senses(int id, Scratch s, HttpResponse res, boolean first) {
        int[] p = s.pos;
        p[0] = dict.wordRecord(id);
        int count = DictFormat.readVarint(file, p);
        for (int i = 0; i < count; i++) {
            int synset = DictFormat.readVarint(file, p);
            if (!first) {
                res.append((byte) ',');
            }
            first = false;
            synset(synset, s.synsetPos, res);
        }
        return first;
    }

    private static final byte[][] POS_JSON = new byte[128][];

    static {
        for (char c : "nvasr".toCharArray()) {
            POS_JSON[c] = ("{\"pos\":\"" + DictFormat.posName((byte) c) + "\",\"gloss\":\"")
                    .getBytes(StandardCharsets.US_ASCII);
        }
    }

    private void synset(int id, int[] q, HttpResponse res) {
        q[0] = dict.synsetRecord(id);
        byte pos = file.get(q[0]++);
        res.append(POS_JSON[pos]);
        string(q, res);
        res.appendAscii("\",\"examples\":[");
        for (int k = DictFormat.readVarint(file, q), i = 0; i < k; i++) {
            res.appendAscii(i == 0 ? "\"" : ",\"");
            string(q, res);
            res.append((byte) '"');
        }
        res.appendAscii("],\"synonyms\":[");
        for (int k = DictFormat.readVarint(file, q), i = 0; i < k; i++) {
            res.appendAscii(i == 0 ? "\"" : ",\"");
            string(q, res);
            res.append((byte) '"');
        }
        res.appendAscii("]}");
    }

    /** Copies a stored (already JSON-escaped) string's bytes straight from the mapped file. */
    private void string(int[] q, HttpResponse res) {
        int len = DictFormat.readVarint(file, q);
        res.append(file, q[0], len);
        q[0] += len;
    }

    /**
     * {@code s} as a number of ASCII digits (leading zeros allowed), or -1: not a number, or over
     * nine digits. Not {@code Integer.parseInt}, which also takes "+3" and other scripts' digits.
     */
    static int asciiNumber(String s) {
        long v = 0;
        int significant = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            if (v != 0 || ch != '0') {
                if (++significant > 9) {
                    return -1;
                }
                v = v * 10 + (ch - '0');
            }
        }
        return s.isEmpty() ? -1 : (int) v;
    }

    private void suggest(HttpRequest req, HttpResponse res) {
        Scratch s = scratch.get();
        int limit = 10;
        String l;
        try {
            l = req.queryParameter("limit");
        } catch (IllegalArgumentException e) {
            error(res, 400, e.getMessage());
            return;
        }
        if (l != null) {
            limit = asciiNumber(l);
            if (limit < 1 || limit > MAX_LIMIT) {
                error(res, 400, "limit must be an integer in 1.." + MAX_LIMIT + ": " + l);
                return;
            }
        }
        int n = query(req, res, 3, s, true);
        if (n < 0) {
            return;
        }
        long range = dict.prefixRange(s.norm, 0, n);
        int from = (int) (range >>> 32), to = (int) range;
        res.contentType(ContentType.JSON);
        res.appendAscii("{\"prefix\":").appendJsonString(s.norm, 0, n);
        res.appendAscii(",\"total\":").appendInt(to - from).appendAscii(",\"words\":[");
        list(s, from, Math.min(to, from + limit), res);
        res.appendAscii("]}");
    }

    private void stats(HttpRequest req, HttpResponse res) {
        ServerStats st = stats == null ? req.stats() : stats.get();
        res.contentType(ContentType.JSON).header("Cache-Control", "no-store");
        res.appendAscii("{\"openConnections\":")
                .appendInt(st.openConnections())
                .appendAscii(",\"acceptedConnections\":")
                .appendInt(st.acceptedConnections())
                .appendAscii(",\"requests\":")
                .appendInt(st.requests())
                .appendAscii(",\"bytesIn\":")
                .appendInt(st.bytesIn())
                .appendAscii(",\"bytesOut\":")
                .appendInt(st.bytesOut())
                .appendAscii(",\"uptimeMillis\":")
                .appendInt(st.uptimeMillis())
                .appendAscii(",\"loops\":")
                .appendInt(st.loops())
                .appendAscii(",\"words\":")
                .appendInt(dict.wordCount())
                .appendAscii(",\"synsets\":")
                .appendInt(dict.synsetCount())
                .appendAscii(",\"dictionaryBytes\":")
                .appendInt(dict.sizeBytes())
                .appendAscii(",\"heapUsedBytes\":")
                .appendInt(Runtime.getRuntime().totalMemory()
                        - Runtime.getRuntime().freeMemory())
                .append((byte) '}');
    }
}
