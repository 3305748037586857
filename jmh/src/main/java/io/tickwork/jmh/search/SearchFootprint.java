package io.tickwork.jmh.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jol.info.GraphLayout;

/**
 * Bytes per key of every int-key search subject of {@link IntSearchBenchmark}, measured: for each
 * distribution, each n and each subject, the structure is built by {@link SearchSubjects} exactly
 * as the benchmark builds it, and JOL walks its object graph
 * ({@code GraphLayout.parseInstance(structure).totalSize()}, every reachable object with headers
 * and padding) and the total is divided by n. The structure is the {@code IntSearch} itself for
 * the variants (its arrays and fields), the {@code int[]} for {@code Arrays.binarySearch}, and the
 * map for {@code HashMap<Integer,Integer>} (table, nodes, boxed keys and values) and fastutil's
 * {@code Int2IntOpenHashMap} (its key and value arrays). The query stream is not counted.
 *
 * <p>Prints a Markdown table (one row per subject, one column per distribution and n), or with
 * {@code --json} one JSON object per line. {@code --n 200000} (repeatable) restricts the sizes.
 * Run from the repository root after {@code ./mvnw -B -q package -pl jmh -am -DskipTests}:
 *
 * <pre>
 * java -Djdk.attach.allowAttachSelf=true -Xmx4g -cp jmh/target/benchmarks.jar \
 *     io.tickwork.jmh.search.SearchFootprint [--json] [--n 200000]
 * </pre>
 *
 * <p>On JDK 17 JOL asks the VM for object sizes through an agent it attaches to this JVM, which
 * needs {@code -Djdk.attach.allowAttachSelf=true}; without it JOL prints "Unable to get
 * Instrumentation. Dynamic Attach failed" and computes sizes from the field layout alone (the
 * same figures for these arrays and maps on JDK 17.0.15; {@code -Djol.magicFieldOffset=true}
 * does not silence the warning). 2,000,000
 * keys in {@code HashMap<Integer,Integer>} need about 150 MB; {@code -Xmx4g} leaves room for the
 * rest.
 *
 * <p>Single-threaded command-line tool.
 */
public final class SearchFootprint {

    private SearchFootprint() {}

    /** Sizes measured unless {@code --n} is given: the benchmark's. */
    static final int[] SIZES = {2_000, 200_000, 2_000_000};

    public static void main(String[] args) {
        boolean json = false;
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json":
                    json = true;
                    break;
                case "--n":
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--n needs a number of keys");
                    }
                    sizes.add(Integer.parseInt(args[++i]));
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument: " + args[i] + " (expected --json, --n N)");
            }
        }
        if (sizes.isEmpty()) {
            for (int n : SIZES) {
                sizes.add(n);
            }
        }
        List<String> names = SearchSubjects.names();
        SearchSubjects.Dist[] dists = SearchSubjects.Dist.values();
        double[][] bytesPerKey = new double[names.size()][dists.length * sizes.size()];
        int column = 0;
        for (SearchSubjects.Dist dist : dists) {
            for (int n : sizes) {
                int[] sorted = SearchSubjects.workload(dist, n, 0).sorted;
                for (int s = 0; s < names.size(); s++) {
                    Object structure = SearchSubjects.build(names.get(s), sorted).structure;
                    long total = GraphLayout.parseInstance(structure).totalSize();
                    bytesPerKey[s][column] = (double) total / n;
                    if (json) {
                        System.out.printf(
                                Locale.ROOT,
                                "{\"impl\":\"%s\",\"dist\":\"%s\",\"n\":%d,\"bytes\":%d,\"bytesPerKey\":%.3f}%n",
                                names.get(s),
                                dist,
                                n,
                                total,
                                bytesPerKey[s][column]);
                    }
                }
                column++;
            }
        }
        if (!json) {
            printTable(names, dists, sizes, bytesPerKey);
        }
    }

    private static void printTable(
            List<String> names, SearchSubjects.Dist[] dists, List<Integer> sizes, double[][] bytesPerKey) {
        StringBuilder head = new StringBuilder("| impl |");
        StringBuilder rule = new StringBuilder("|---|");
        for (SearchSubjects.Dist dist : dists) {
            for (int n : sizes) {
                head.append(' ').append(dist).append(" n=").append(n).append(" |");
                rule.append("---:|");
            }
        }
        System.out.println("Bytes per key (JOL GraphLayout totalSize / n)");
        System.out.println();
        System.out.println(head);
        System.out.println(rule);
        for (int s = 0; s < names.size(); s++) {
            StringBuilder row = new StringBuilder("| ").append(names.get(s)).append(" |");
            for (double b : bytesPerKey[s]) {
                row.append(String.format(Locale.ROOT, " %.2f |", b));
            }
            System.out.println(row);
        }
    }
}
