package io.tickwork.server.anchors;

import java.lang.reflect.Field;

/**
 * Prints the load client's built-in word list ({@code Words.BUILT_IN}), one word per line, for
 * {@code docs/results/anchors/words.lua}. From the repository root, after a build:
 *
 * <pre>
 * java -cp nio-server/target/classes:nio-server/target/test-classes io.tickwork.server.anchors.BuiltInWords &gt; /tmp/words.txt
 * </pre>
 */
public final class BuiltInWords {
    private BuiltInWords() {}

    public static void main(String[] args) throws Exception {
        Field f = Class.forName("io.tickwork.client.bench.Words").getDeclaredField("BUILT_IN");
        f.setAccessible(true);
        for (String w : (String[]) f.get(null)) {
            System.out.println(w);
        }
    }
}
