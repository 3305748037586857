package io.tickwork.jmh.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of JMH's JSON output: which benchmark, with which parameters, scored what, and how
 * much it allocated per operation (when run with {@code -prof gc}). Immutable.
 */
final class BenchResult {
    final String benchmark; // fully qualified: package.Class.method
    final String mode; // thrpt, avgt, sample, ss
    final Map<String, String> params;
    final double score;
    final double error; // NaN when JMH could not compute one (single iteration)
    final String unit;
    final double allocBytesPerOp; // NaN without -prof gc
    final double allocError;

    BenchResult(
            String benchmark,
            String mode,
            Map<String, String> params,
            double score,
            double error,
            String unit,
            double allocBytesPerOp,
            double allocError) {
        this.benchmark = benchmark;
        this.mode = mode;
        this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        this.score = score;
        this.error = error;
        this.unit = unit;
        this.allocBytesPerOp = allocBytesPerOp;
        this.allocError = allocError;
    }

    /** {@code Class} of {@code package.Class.method}. */
    String className() {
        String withoutMethod = benchmark.substring(0, benchmark.lastIndexOf('.'));
        return withoutMethod.substring(withoutMethod.lastIndexOf('.') + 1);
    }

    /** {@code method} of {@code package.Class.method}. */
    String method() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    /** Higher score is better for throughput; lower is better for time per operation. */
    boolean higherIsBetter() {
        return "thrpt".equals(mode);
    }

    /** Reads every result of one JMH JSON document. */
    @SuppressWarnings("unchecked")
    static List<BenchResult> parse(String jsonText) {
        Object root = Json.parse(jsonText);
        if (!(root instanceof List)) {
            throw new IllegalArgumentException("JMH JSON must be an array of results, got "
                    + (root == null ? "null" : root.getClass().getSimpleName()));
        }
        List<BenchResult> results = new ArrayList<>();
        for (Object o : (List<Object>) root) {
            Map<String, Object> row = (Map<String, Object>) o;
            Map<String, String> params = new LinkedHashMap<>();
            Object p = row.get("params");
            if (p instanceof Map) {
                ((Map<String, Object>) p).forEach((k, v) -> params.put(k, String.valueOf(v)));
            }
            Map<String, Object> primary = (Map<String, Object>) row.get("primaryMetric");
            if (primary == null) {
                throw new IllegalArgumentException("result without primaryMetric: " + row.get("benchmark"));
            }
            double alloc = Double.NaN;
            double allocErr = Double.NaN;
            Object secondary = row.get("secondaryMetrics");
            if (secondary instanceof Map) {
                for (Map.Entry<String, Object> e : ((Map<String, Object>) secondary).entrySet()) {
                    // JMH names it "·gc.alloc.rate.norm" (with a leading middle dot)
                    if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                        Map<String, Object> m = (Map<String, Object>) e.getValue();
                        alloc = number(m.get("score"));
                        allocErr = number(m.get("scoreError"));
                    }
                }
            }
            results.add(new BenchResult(
                    (String) row.get("benchmark"),
                    (String) row.get("mode"),
                    params,
                    number(primary.get("score")),
                    number(primary.get("scoreError")),
                    (String) primary.get("scoreUnit"),
                    alloc,
                    allocErr));
        }
        return results;
    }

    private static double number(Object o) {
        if (o instanceof Number) {
            return ((Number) o).doubleValue();
        }
        if (o instanceof String) { // JMH writes "NaN" as a string
            try {
                return Double.parseDouble((String) o);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}
