package io.tickwork.server.dict;

import io.tickwork.primitives.search.ByteKeyIndex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * The compiled WordNet dictionary ({@link DictFormat}), memory-mapped and read in place: lemma
 * lookup (case-insensitive, {@code "ice cream"} = {@code "ice_cream"}), inflections from WordNet's
 * exception lists and its detachment rules ({@code geese -> goose}, {@code ran -> run},
 * {@code cats -> cat}), prefix ranges, and each word's senses.
 *
 * <p><b>Memory:</b> the heap holds this object, two {@link ByteKeyIndex} views and a few buffer
 * views, whatever the size of the dictionary; words and senses live in the mapped file (page
 * cache, shared between processes). Nothing is ever copied into per-word objects.
 *
 * <p><b>Cost:</b> a lookup is two index searches, the lemmas' and the exception lists' (a few more
 * for detachment rules), no
 * allocation on the byte[] paths. <b>Thread safety:</b> immutable; every read is absolute, so
 * any number of threads may share one instance. Callers supply their own scratch arrays.
 *
 * <p><b>Caveat:</b> the file is checked when opened, then read through its mapping: a file
 * replaced by a rename leaves this instance reading the old one; a file rewritten in place is read
 * unchecked, and one truncated makes reads past its new end throw {@link InternalError}.
 */
public final class Dictionary {
    /** Longest query considered, in bytes after percent-decoding; longer ones cannot be lemmas. */
    public static final int MAX_QUERY = 256;

    private final ByteBuffer file;
    private final ByteKeyIndex keys;
    private final ByteKeyIndex exceptions;
    private final int words, synsets;
    private final int wordTable, wordData, synTable, synData, excTable, excData;
    private final String source;

    private Dictionary(ByteBuffer file, String source) {
        this.file = file.duplicate().order(ByteOrder.BIG_ENDIAN);
        this.source = source;
        byte[] magic = new byte[8];
        this.file.get(0, magic);
        if (!Arrays.equals(magic, DictFormat.MAGIC)) {
            throw new IllegalArgumentException("not a tickwork dictionary (magic "
                    + new String(magic, StandardCharsets.ISO_8859_1) + ", expected TWDICT01): " + source);
        }
        this.words = this.file.getInt(8);
        this.synsets = this.file.getInt(12);
        this.keys = ByteKeyIndex.wrap(this.file.duplicate().position(sectionOffset(DictFormat.KEYS)));
        this.exceptions = ByteKeyIndex.wrap(this.file.duplicate().position(sectionOffset(DictFormat.EXC_KEYS)));
        this.wordTable = sectionOffset(DictFormat.WORDS);
        this.wordData = sectionOffset(DictFormat.WORD_DATA);
        this.synTable = sectionOffset(DictFormat.SYNSETS);
        this.synData = sectionOffset(DictFormat.SYN_DATA);
        this.excTable = sectionOffset(DictFormat.EXC);
        this.excData = sectionOffset(DictFormat.EXC_DATA);
        if (keys.size() != words) {
            throw new IllegalArgumentException(
                    "index holds " + keys.size() + " keys, header says " + words + ": " + source);
        }
    }

    private int sectionOffset(int section) {
        return file.getInt(DictFormat.HEADER_SIZE - DictFormat.SECTIONS * 8 + section * 8);
    }

    private int sectionLength(int section) {
        return file.getInt(DictFormat.HEADER_SIZE - DictFormat.SECTIONS * 8 + section * 8 + 4);
    }

    /**
     * Maps a compiled dictionary file read-only, after checking that it is whole: the magic, a
     * section table inside the file, and the CRC-32 of every byte after the header against the one
     * the header records (about 10 ms for the 17 MB WordNet file, once per start).
     *
     * @throws DamagedDictionaryException if the file is truncated or its bytes do not match its
     *     CRC; the message names the file and what is wrong
     */
    public static Dictionary open(Path path) throws IOException {
        if (path.toString().isEmpty()) {
            throw new IOException("an empty path names no dictionary file");
        }
        if (Files.isDirectory(path)) {
            throw new IOException(path + ": a directory, not a dictionary file");
        }
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            // a pipe or a device: opening a FIFO blocks until a writer comes, and none maps
            throw new IOException(path + ": not a regular file (a pipe or a device), not a dictionary file");
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            verify(mapped, path.toString());
            try {
                return new Dictionary(mapped, path.toString());
            } catch (RuntimeException inconsistent) { // whole by its CRC, but not what this reader builds
                throw new DamagedDictionaryException(path + ": damaged: " + inconsistent.getMessage());
            }
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(path + ": no such file", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException(path + ": permission denied", e);
        }
    }

    /**
     * Checks {@code file}'s magic, its header against the layout (the sections in order and
     * contiguous to the end of the file, the counts matching their tables), the data's CRC, and
     * then the lengths against the data (zero padding, each table ending at its data's length);
     * {@code source} names it in the error.
     */
    static void verify(ByteBuffer file, String source) throws DamagedDictionaryException {
        ByteBuffer f = file.duplicate().order(ByteOrder.BIG_ENDIAN);
        long size = f.capacity();
        if (size < DictFormat.HEADER_SIZE) {
            throw new DamagedDictionaryException(source + ": truncated: " + size + " bytes, shorter than the "
                    + DictFormat.HEADER_SIZE + "-byte header");
        }
        byte[] magic = new byte[8];
        f.get(0, magic);
        if (!Arrays.equals(magic, DictFormat.MAGIC)) {
            throw new DamagedDictionaryException(source + ": not a tickwork dictionary (magic "
                    + new String(magic, StandardCharsets.ISO_8859_1) + ", expected TWDICT01)");
        }
        // The CRC covers the data, not the header; every header field is checked against the
        // layout instead: the sections follow one another from the header's end to the file's,
        // and the three counts match the lengths of the offset tables they size
        long end = DictFormat.HEADER_SIZE;
        int[] offsets = new int[DictFormat.SECTIONS];
        long[] lengths = new long[DictFormat.SECTIONS];
        for (int s = 0; s < DictFormat.SECTIONS; s++) {
            int at = DictFormat.HEADER_SIZE - DictFormat.SECTIONS * 8 + s * 8;
            long offset = f.getInt(at) & 0xFFFF_FFFFL;
            lengths[s] = f.getInt(at + 4) & 0xFFFF_FFFFL;
            if (offset != end) {
                throw new DamagedDictionaryException(source + ": damaged header: section " + s + " starts at byte "
                        + offset + ", where the one before ends at " + end);
            }
            offsets[s] = (int) offset; // within the file, which a buffer's int indexes
            end += (lengths[s] + 7) & ~7L; // DictFormat.align, in long: a damaged length may be near 2^32
        }
        if (end > size) {
            throw new DamagedDictionaryException(
                    source + ": truncated: " + size + " bytes, its sections end at byte " + end);
        }
        if (end != size) {
            throw new DamagedDictionaryException(
                    source + ": damaged header: its sections end at byte " + end + ", the file at " + size);
        }
        int[][] counted = {
            {DictFormat.WORDS_POS, DictFormat.WORDS},
            {DictFormat.SYNSETS_POS, DictFormat.SYNSETS},
            {DictFormat.EXCEPTIONS_POS, DictFormat.EXC}
        };
        for (int[] c : counted) {
            long n = f.getInt(c[0]) & 0xFFFF_FFFFL;
            if (lengths[c[1]] != 4 * (n + 1)) {
                throw new DamagedDictionaryException(source + ": damaged header: a count of " + n + " for section "
                        + c[1] + " of " + lengths[c[1]] + " bytes (" + 4 * (n + 1) + " expected)");
            }
        }
        CRC32 crc = new CRC32();
        crc.update(f.duplicate().position(DictFormat.HEADER_SIZE));
        int expected = f.getInt(DictFormat.CRC_POS);
        if ((int) crc.getValue() != expected) {
            throw new DamagedDictionaryException(String.format(
                    "%s: damaged: the CRC-32 of its %,d data bytes is %08x, the header records %08x",
                    source, size - DictFormat.HEADER_SIZE, (int) crc.getValue(), expected));
        }
        // the data is whole now: every section's padding is zero, the licence text holds no NUL
        // (a length one too long would take in padding), and each offset table's last entry is
        // the length of the data it indexes
        for (int s = 0; s < DictFormat.SECTIONS; s++) {
            int padEnd = offsets[s] + DictFormat.align((int) lengths[s]);
            for (int i = offsets[s] + (int) lengths[s]; i < padEnd; i++) {
                if (f.get(i) != 0) {
                    throw new DamagedDictionaryException(
                            source + ": damaged header: section " + s + " is longer than " + lengths[s] + " bytes");
                }
            }
        }
        for (int i = 0; i < lengths[DictFormat.LICENSE]; i++) {
            if (f.get(offsets[DictFormat.LICENSE] + i) == 0) {
                throw new DamagedDictionaryException(source + ": damaged header: the licence section takes in padding");
            }
        }
        int[][] indexed = {
            {DictFormat.WORDS, DictFormat.WORD_DATA},
            {DictFormat.SYNSETS, DictFormat.SYN_DATA},
            {DictFormat.EXC, DictFormat.EXC_DATA}
        };
        for (int[] t : indexed) {
            long last = f.getInt(offsets[t[0]] + (int) lengths[t[0]] - 4) & 0xFFFF_FFFFL;
            if (last != lengths[t[1]]) {
                throw new DamagedDictionaryException(source + ": damaged header: section " + t[1] + " is "
                        + lengths[t[1]] + " bytes, its offset table ends at " + last);
            }
        }
    }

    /**
     * The dictionary shipped in this jar. A jar entry cannot be mapped, so the first start copies
     * it into this user's cache directory ({@link #cacheDirectory()}, created owner-only) as
     * {@code wordnet31-<crc>.twd}, atomically, and every start maps that file after checking it
     * as {@link #open} does. A copy that is damaged, or that another user owns or could have
     * written, is never mapped: it is replaced, and if the directory cannot be trusted or written,
     * the dictionary is read into one direct buffer instead (still off-heap).
     */
    public static Dictionary openEmbedded() throws IOException {
        try (InputStream in = Dictionary.class.getResourceAsStream(DictFormat.RESOURCE)) {
            if (in == null) {
                throw new IOException("the embedded dictionary " + DictFormat.RESOURCE
                        + " is missing from the class path (was the build's process-classes phase run?)");
            }
            byte[] header = in.readNBytes(DictFormat.HEADER_SIZE);
            int crc = ByteBuffer.wrap(header).getInt(DictFormat.CRC_POS);
            Path dir = trustedCacheDirectory();
            Path cached = dir == null ? null : dir.resolve("wordnet31-" + Integer.toHexString(crc) + ".twd");
            if (cached != null && Files.isRegularFile(cached, LinkOption.NOFOLLOW_LINKS) && ownedByUs(cached)) {
                try {
                    return open(cached);
                } catch (IOException | RuntimeException damaged) {
                    // fall through and rewrite it
                }
            }
            byte[] bytes = concat(header, in.readAllBytes());
            ByteBuffer direct =
                    ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            String source = "embedded " + DictFormat.RESOURCE;
            verify(direct, source);
            if (cached != null) {
                Path tmp = null;
                try {
                    tmp = Files.createTempFile(dir, "wordnet31-", ".tmp");
                    Files.write(tmp, bytes);
                    Files.move(tmp, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    return open(cached);
                } catch (IOException e) {
                    // unwritable cache (a full disk, say): serve from the direct buffer, and leave no
                    // partial copy behind for each start to add another
                    if (tmp != null) {
                        try {
                            Files.deleteIfExists(tmp);
                        } catch (IOException ignored) {
                            // nothing more to do
                        }
                    }
                }
            }
            return new Dictionary(direct, source);
        }
    }

    /**
     * Where the embedded dictionary is cached: {@code -Dtickwork.cache.dir}, else
     * {@code $XDG_CACHE_HOME/tickwork}, else {@code ~/.cache/tickwork}; null when none of these is
     * known (the JVM reports a home of {@code ?} for a uid without a passwd entry). A per-user
     * directory, so no other local user can plant a file under the name the server will map.
     */
    static Path cacheDirectory() {
        String configured = System.getProperty("tickwork.cache.dir");
        if (configured != null) {
            return Paths.get(configured);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Paths.get(xdg, "tickwork");
        }
        String home = System.getProperty("user.home");
        if (home == null || home.equals("?") || !Paths.get(home).isAbsolute()) {
            return null; // a user with no home (a uid without a passwd entry, in a container): no cache
        }
        return Paths.get(home, ".cache", "tickwork");
    }

    /**
     * {@link #cacheDirectory()}, created owner-only (rwx------) if missing, or null if it cannot be
     * created, is not a plain directory, belongs to another user, or is writable by group or others.
     */
    static Path trustedCacheDirectory() {
        Path dir = cacheDirectory();
        if (dir == null) {
            return null;
        }
        try {
            boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                if (posix) {
                    Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                    Files.setPosixFilePermissions(dir, OWNER_ONLY); // the umask may have narrowed it
                } else {
                    Files.createDirectories(dir);
                }
            }
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !ownedByUs(dir)) {
                return null;
            }
            if (posix) {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
                if (perms.contains(PosixFilePermission.GROUP_WRITE)
                        || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                    return null;
                }
            }
            return dir;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    /**
     * Whether this process's user owns {@code p}: by numeric uid where the platform has one (a uid
     * without a passwd entry has no name; the JVM's {@code user.name} is then {@code ?}), else by
     * name.
     */
    static boolean ownedByUs(Path p) throws IOException {
        Integer ours = ourUid();
        if (ours != null) {
            return ours.equals(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS));
        }
        return Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName().equals(System.getProperty("user.name"));
    }

    /** This process's uid: the owner of its {@code /proc} directory (Linux); null where unknown. */
    private static Integer ourUid() {
        try {
            Object uid = Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
            return uid instanceof Integer ? (Integer) uid : null;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** Wraps compiled bytes already in memory (tests). */
    static Dictionary wrap(ByteBuffer compiled) {
        return new Dictionary(compiled, "memory");
    }

    public int wordCount() {
        return words;
    }

    public int synsetCount() {
        return synsets;
    }

    /** Size of the compiled data in bytes. */
    public int sizeBytes() {
        return file.capacity();
    }

    public String source() {
        return source;
    }

    /** The WordNet 3.1 licence text stored with the data. */
    public String license() {
        byte[] b = new byte[sectionLength(DictFormat.LICENSE)];
        file.get(sectionOffset(DictFormat.LICENSE), b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The lemma (lower case, spaces between words) of word {@code id}. */
    public String word(int id) {
        return keys.keyString(id);
    }

    ByteKeyIndex keys() {
        return keys;
    }

    // ---------------------------------------------------------------- lookup

    /**
     * Normalizes a query into {@code dst}: ASCII lower case, {@code '_'} and runs of white space
     * as one space, trimmed. Returns the length, or -1 if it does not fit (longer than
     * {@link #MAX_QUERY}).
     */
    public static int normalize(byte[] src, int off, int len, byte[] dst) {
        return normalize(src, off, len, dst, false);
    }

    /**
     * As {@link #normalize(byte[], int, int, byte[])}; with {@code keepTrailingSpace}, input ending
     * in white space or {@code '_'} keeps one trailing space (a prefix {@code "ice "} must not match
     * {@code "iceberg"}).
     */
    public static int normalize(byte[] src, int off, int len, byte[] dst, boolean keepTrailingSpace) {
        int n = 0;
        boolean space = false;
        for (int i = off; i < off + len; i++) {
            byte b = src[i];
            if (b == '_' || b == ' ' || b == '\t') {
                space = n > 0;
                continue;
            }
            if (space) {
                if (n >= dst.length) {
                    return -1;
                }
                dst[n++] = ' ';
                space = false;
            }
            if (n >= dst.length) {
                return -1;
            }
            dst[n++] = (b >= 'A' && b <= 'Z') ? (byte) (b + 32) : b;
        }
        if (space && keepTrailingSpace) {
            if (n >= dst.length) {
                return -1;
            }
            dst[n++] = ' ';
        }
        return n;
    }

    /** Exact lemma lookup of normalized bytes: the word id, or a negative insertion point (binarySearch). */
    public int find(byte[] key, int off, int len) {
        return keys.find(key, off, len);
    }

    // WordNet's detachment rules (morphy): suffix -> replacement, nouns, verbs, adjectives.
    private static final byte[][][] RULES = rules(
            "s", "", "ses", "s", "xes", "x", "zes", "z", "ches", "ch", "shes", "sh", "men", "man", "ies", "y", "es",
            "e", "es", "", "ed", "e", "ed", "", "ing", "e", "ing", "", "er", "", "est", "", "er", "e", "est", "e");

    private static byte[][][] rules(String... pairs) {
        byte[][][] r = new byte[pairs.length / 2][][];
        for (int i = 0; i < r.length; i++) {
            r[i] = new byte[][] {
                pairs[2 * i].getBytes(StandardCharsets.US_ASCII), pairs[2 * i + 1].getBytes(StandardCharsets.US_ASCII)
            };
        }
        return r;
    }

    /**
     * Resolves a normalized query to the words it names, as WordNet's morphy does: the lemma
     * itself, followed by the base forms the exception lists give it (a query that is both a
     * lemma and an inflection, {@code saw} or {@code found}, names both: {@code saw, see}); with
     * neither, the first lemma reached by a detachment rule. Writes up to {@code out.length}
     * distinct word ids, the lemma first, and returns how many (0: unknown word). {@code scratch}
     * must hold at least {@code len} bytes.
     */
    public int resolve(byte[] q, int len, int[] out, byte[] scratch) {
        if (len == 0 || out.length == 0) {
            return 0;
        }
        int k = 0;
        int id = keys.find(q, 0, len);
        if (id >= 0) {
            out[k++] = id;
        }
        int e = exceptions.find(q, 0, len);
        if (e >= 0) {
            int[] pos = {excData + file.getInt(excTable + 4 * e)};
            int n = DictFormat.readVarint(file, pos);
            for (int i = 0; i < n && k < out.length; i++) {
                int base = DictFormat.readVarint(file, pos);
                if (base != id) {
                    out[k++] = base;
                }
            }
        }
        if (k > 0) {
            return k;
        }
        for (byte[][] rule : RULES) {
            byte[] suffix = rule[0], repl = rule[1];
            if (len > suffix.length && endsWith(q, len, suffix)) {
                int base = len - suffix.length;
                System.arraycopy(q, 0, scratch, 0, base);
                System.arraycopy(repl, 0, scratch, base, repl.length);
                int r = keys.find(scratch, 0, base + repl.length);
                if (r >= 0) {
                    out[0] = r;
                    return 1;
                }
            }
        }
        return 0;
    }

    private static boolean endsWith(byte[] q, int len, byte[] suffix) {
        for (int i = 0; i < suffix.length; i++) {
            if (q[len - suffix.length + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The first word id whose key starts with {@code prefix}, and one past the last, packed {@code first << 32 | end}. */
    public long prefixRange(byte[] prefix, int off, int len) {
        return keys.prefixRange(prefix, off, len);
    }

    /** Copies word {@code id}'s key into {@code dst}; returns its length. */
    public int copyWord(int id, byte[] dst, int off) {
        return keys.copyKey(id, dst, off);
    }

    public int wordLength(int id) {
        return keys.keyLength(id);
    }

    // ---------------------------------------------------------------- senses, read in place

    /** Position of word {@code id}'s record (varint count, varint synset ids) in the file. */
    int wordRecord(int id) {
        return wordData + file.getInt(wordTable + 4 * id);
    }

    /** Position of synset {@code id}'s record in the file. */
    int synsetRecord(int id) {
        return synData + file.getInt(synTable + 4 * id);
    }

    ByteBuffer file() {
        return file;
    }

    /** One sense, decoded into objects: for tests and tools, not for the server's hot path. */
    public record Sense(String pos, String gloss, List<String> examples, List<String> synonyms) {}

    /** The senses of word {@code id} in WordNet order, decoded (allocates; JSON escapes kept). */
    public List<Sense> senses(int id) {
        int[] p = {wordRecord(id)};
        int n = DictFormat.readVarint(file, p);
        List<Sense> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int s = DictFormat.readVarint(file, p);
            int[] q = {synsetRecord(s)};
            String pos = DictFormat.posName(file.get(q[0]++));
            String gloss = readString(q);
            List<String> ex = new ArrayList<>();
            for (int k = DictFormat.readVarint(file, q); k > 0; k--) {
                ex.add(readString(q));
            }
            List<String> syn = new ArrayList<>();
            for (int k = DictFormat.readVarint(file, q); k > 0; k--) {
                syn.add(readString(q));
            }
            out.add(new Sense(pos, gloss, ex, syn));
        }
        return out;
    }

    private String readString(int[] p) {
        int len = DictFormat.readVarint(file, p);
        byte[] b = new byte[len];
        file.get(p[0], b);
        p[0] += len;
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Convenience lookup for tools and tests (allocates): the word ids a query resolves to. */
    public int[] lookup(String query) {
        byte[] raw = query.getBytes(StandardCharsets.UTF_8);
        byte[] norm = new byte[Math.max(MAX_QUERY, raw.length)];
        int len = normalize(raw, 0, raw.length, norm);
        if (len < 0) {
            return new int[0];
        }
        int[] out = new int[8];
        int n = resolve(norm, len, out, new byte[len + 8]);
        return Arrays.copyOf(out, n);
    }
}
