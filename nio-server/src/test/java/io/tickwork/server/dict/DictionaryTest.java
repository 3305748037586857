package io.tickwork.server.dict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The compiled WordNet data, read through the mapped file the server uses. */
class DictionaryTest {
    static Dictionary dict;

    @BeforeAll
    static void open() throws Exception {
        dict = Dictionary.openEmbedded();
    }

    @Test
    void holdsAllOfWordNet31() {
        assertEquals(147_478, dict.wordCount(), "unique lemmas (no 65,535 cap)");
        assertEquals(117_791, dict.synsetCount());
        assertTrue(dict.license().contains("WordNet 3.1 Copyright 2011 by Princeton University"), dict.license());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "dog | dog | noun | a member of the genus Canis (probably descended from the common wolf) that has been domesticated by man since prehistoric times; occurs in many breeds",
                "ice cream | ice cream | noun | frozen dessert containing cream and sugar and flavoring",
                "ice_cream | ice cream | noun | frozen dessert containing cream and sugar and flavoring",
                "ICE  Cream | ice cream | noun | frozen dessert containing cream and sugar and flavoring",
                "geese | goose | noun | web-footed long-necked typically gregarious migratory aquatic birds usually larger and less aquatic than ducks",
                "ran | run | noun | a score in baseball made by a runner touching all four bases safely",
                "mice | mouse | noun | any of numerous small rodents typically resembling diminutive rats having pointed snouts and small ears on elongated bodies with slender usually hairless tails",
                "children | child | noun | a young person of either sex",
                "went | go | noun | a time period for working (after which you will be relieved by someone else)",
                "cats | cat | noun | feline mammal usually having thick soft fur and no ability to roar: domestic cats; wildcats",
                "Einstein | einstein | noun | physicist born in Germany who formulated the special theory of relativity and the general theory of relativity; Einstein also proposed that light consists of discrete quantized bundles of energy (later called photons) (1879-1955)",
                "zebra | zebra | noun | any of several fleet black-and-white striped African equines",
                "xylophone | xylophone | noun | a percussion instrument with wooden bars tuned to produce a chromatic scale and with resonators; played with small mallets",
                "'hood | 'hood | noun | (slang) a neighborhood",
            })
    void knownWordsAndTheirFirstGloss(String query, String lemma, String pos, String gloss) {
        int[] ids = dict.lookup(query);
        assertTrue(ids.length > 0, query);
        assertEquals(lemma, dict.word(ids[0]));
        Dictionary.Sense first = dict.senses(ids[0]).get(0);
        assertEquals(pos, first.pos());
        assertEquals(gloss, first.gloss());
    }

    @Test
    void examplesAndSynonymsAreSplitOutOfTheGloss() {
        Dictionary.Sense dog = dict.senses(dict.lookup("dog")[0]).get(0);
        assertEquals(List.of("the dog barked all night"), dog.examples());
        assertEquals(List.of("dog", "domestic dog", "Canis familiaris"), dog.synonyms());
        List<String> posOfRun = new ArrayList<>();
        for (Dictionary.Sense s : dict.senses(dict.lookup("run")[0])) {
            if (!posOfRun.contains(s.pos())) {
                posOfRun.add(s.pos());
            }
        }
        assertEquals(List.of("noun", "verb"), posOfRun, "nouns first, then verbs");
        assertEquals(57, dict.senses(dict.lookup("run")[0]).size());
    }

    /** As WordNet's morphy: a lemma that is also an inflected form names its base forms too, after itself. */
    @Test
    void aLemmaThatIsAlsoAnInflectionNamesItsBaseFormsToo() {
        assertEquals(List.of("saw", "see"), words(dict.lookup("saw")));
        assertEquals(List.of("found", "find"), words(dict.lookup("found")));
        assertEquals(List.of("dog"), words(dict.lookup("dog")));
        assertEquals(List.of("goose"), words(dict.lookup("geese")));
    }

    private static List<String> words(int[] ids) {
        List<String> w = new ArrayList<>();
        for (int id : ids) {
            w.add(dict.word(id));
        }
        return w;
    }

    @Test
    void unknownWordsResolveToNothing() {
        assertArrayEquals(new int[0], dict.lookup("xyzzyq"));
        assertArrayEquals(new int[0], dict.lookup(""));
        assertArrayEquals(new int[0], dict.lookup("   "));
    }

    @Test
    void prefixRangeListsWordsInOrder() {
        byte[] p = "ice c".getBytes(StandardCharsets.UTF_8);
        long r = dict.prefixRange(p, 0, p.length);
        int from = (int) (r >>> 32), to = (int) r;
        List<String> words = new ArrayList<>();
        for (int i = from; i < to; i++) {
            words.add(dict.word(i));
        }
        assertEquals(List.of("ice cap", "ice chest", "ice coffee", "ice cream", "ice crystal", "ice cube"), words);
        for (int i = 1; i < dict.wordCount(); i += 997) {
            assertTrue(dict.word(i - 1).compareTo(dict.word(i)) < 0);
        }
    }
}
