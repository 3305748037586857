package io.tickwork.server.dict;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The compiled dictionary file, one place for its layout: writer ({@link WordNetCompiler}) and
 * reader ({@link Dictionary}) share these constants so they cannot drift apart.
 *
 * <pre>
 * header (96 bytes, big-endian)
 *   magic "TWDICT01" | int words | int synsets | int exceptions | int crc32 of everything after the header
 *   9 x (int offset, int length) section table, offsets from the start of the file; the sections
 *   follow one another from byte 96, each padded to 8 bytes, to the end of the file
 * KEYS       sorted lemma keys (lower case, '_' as ' '), a ByteKeyIndex image; word id = key position
 * WORDS      int[words + 1]: offsets of each word's record in WORD_DATA
 * WORD_DATA  per word: varint n, n x varint synset id (WordNet sense order, noun, verb, adj, adv)
 * SYNSETS    int[synsets + 1]: offsets of each synset's record in SYN_DATA
 * SYN_DATA   per synset: byte pos (n v a s r); str gloss; varint k, k x str example;
 *            varint m, m x str synonym  (str = varint length + UTF-8 bytes already JSON-escaped)
 * EXC_KEYS   sorted inflected forms from WordNet's exception lists (geese, ran), a ByteKeyIndex image
 * EXC        int[exceptions + 1]: offsets into EXC_DATA
 * EXC_DATA   per inflected form: varint n, n x varint word id of its base forms
 * LICENSE    the WordNet 3.1 licence text, UTF-8
 * </pre>
 *
 * Varints are unsigned LEB128. Strings are stored JSON-escaped so the server copies them into a
 * response without looking at them.
 */
final class DictFormat {
    static final byte[] MAGIC = "TWDICT01".getBytes(StandardCharsets.US_ASCII);
    static final int SECTIONS = 9;
    static final int HEADER_SIZE = 8 + 16 + SECTIONS * 8;
    static final int KEYS = 0,
            WORDS = 1,
            WORD_DATA = 2,
            SYNSETS = 3,
            SYN_DATA = 4,
            EXC_KEYS = 5,
            EXC = 6,
            EXC_DATA = 7,
            LICENSE = 8;
    static final int CRC_POS = 20;
    /** Where the header's counts of words, synsets and exceptions are. */
    static final int WORDS_POS = 8, SYNSETS_POS = 12, EXCEPTIONS_POS = 16;

    /** Sections follow one another from the end of the header, each padded to 8 bytes. */
    static int align(int n) {
        return (n + 7) & ~7;
    }

    static final String RESOURCE = "wordnet31.twd";
    static final String LICENSE_RESOURCE = "WORDNET-LICENSE.txt";

    private DictFormat() {}

    /** Reads an unsigned LEB128 varint at {@code pos[0]} and advances it. */
    static int readVarint(ByteBuffer b, int[] pos) {
        int p = pos[0];
        int result = 0;
        int shift = 0;
        while (true) {
            int x = b.get(p++);
            result |= (x & 0x7F) << shift;
            if (x >= 0) {
                pos[0] = p;
                return result;
            }
            shift += 7;
        }
    }

    static String posName(byte pos) {
        switch (pos) {
            case 'n':
                return "noun";
            case 'v':
                return "verb";
            case 'a':
            case 's':
                return "adjective";
            case 'r':
                return "adverb";
            default:
                throw new IllegalStateException("unknown part of speech: " + (char) pos);
        }
    }
}
