package io.tickwork.server.anchors;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Random;

/**
 * Replays 100,000 random requests (uniform, and Zipf of exponent 1 in list order; {@code
 * Random(1)}) over the load client's built-in word list through a 256-slot {@code WordBodyCache},
 * both reached by reflection, and prints the hit rates ({@code docs/results/anchors.md}, "word
 * cache"). From the repository root, after a build:
 *
 * <pre>
 * java -cp nio-server/target/classes:nio-server/target/test-classes io.tickwork.server.anchors.WordCacheReplay
 * </pre>
 */
public final class WordCacheReplay {
    private WordCacheReplay() {}

    public static void main(String[] args) throws Exception {
        Field builtIn = Class.forName("io.tickwork.client.bench.Words").getDeclaredField("BUILT_IN");
        builtIn.setAccessible(true);
        List<String> words = List.of((String[]) builtIn.get(null));
        Class<?> c = Class.forName("io.tickwork.server.dict.WordBodyCache");
        Constructor<?> k = c.getDeclaredConstructor(int.class, int.class);
        k.setAccessible(true);
        Method set = c.getDeclaredMethod("set", byte[].class, int.class);
        set.setAccessible(true);
        Method find = c.getDeclaredMethod("find", int.class, byte[].class, int.class);
        find.setAccessible(true);
        Class<?> rc = Class.forName("io.tickwork.server.http.HttpResponse");
        Method put = c.getDeclaredMethod("put", int.class, byte[].class, int.class, rc, int.class);
        put.setAccessible(true);
        Object res = rc.getConstructor().newInstance();
        rc.getMethod("appendAscii", CharSequence.class).invoke(res, "body");
        double[] w = new double[words.size()];
        double sum = 0;
        for (int i = 0; i < w.length; i++) {
            sum += 1.0 / (i + 1);
            w[i] = sum;
        }
        for (String dist : new String[] {"uniform", "zipf"}) {
            Object cache = k.newInstance(256, 16384);
            Random r = new Random(1);
            int hits = 0, n = 100_000;
            for (int i = 0; i < n; i++) {
                int idx;
                if (dist.equals("uniform")) idx = r.nextInt(words.size());
                else {
                    double x = r.nextDouble() * sum;
                    idx = 0;
                    while (w[idx] < x) idx++;
                }
                byte[] key = words.get(idx).getBytes();
                int s = (int) set.invoke(cache, key, key.length);
                if ((int) find.invoke(cache, s, key, key.length) >= 0) hits++;
                else put.invoke(cache, s, key, key.length, res, 0);
            }
            System.out.printf("%s %.3f%n", dist, hits / (double) n);
        }
    }
}
