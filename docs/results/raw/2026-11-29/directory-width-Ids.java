import io.tickwork.primitives.search.*;
import java.util.*;
public class Ids {
    public static void main(String[] a) {
        int n = 1_000_000;
        for (int end : new int[] {1 << 24, 10_000_000, 12_000_000}) {
            int[] keys = new SplittableRandom(7).ints(1, end + 1).distinct().limit(n).toArray();
            Arrays.sort(keys);
            SplittableRandom r = new SplittableRandom(11);
            int[] q = new int[1 << 20];
            for (int i = 0; i < q.length; i++) q[i] = (i & 1) == 0 ? keys[r.nextInt(n)] : 1 + r.nextInt(end);
            IntSearch of = IntSearch.of(keys), rd = IntSearchKind.RADIX_DIRECTORY.build(keys), co = IntSearch.compactOf(keys);
            System.out.printf("ids in [1, %,d]: of -> %s, compactOf -> %s; ns per lookup (best of 8, 5M lookups): of %.1f, RADIX_DIRECTORY %.1f, compactOf %.1f%n",
                end, of, co, time(of, q), time(rd, q), time(co, q));
        }
    }
    static long sink;
    static double time(IntSearch s, int[] q) {
        double best = 1e9;
        for (int round = 0; round < 8; round++) {
            long t0 = System.nanoTime(); long acc = 0;
            for (int i = 0; i < 5_000_000; i++) acc += s.indexOf(q[i & (q.length - 1)]);
            best = Math.min(best, (System.nanoTime() - t0) / 5e6); sink += acc;
        }
        return best;
    }
}
