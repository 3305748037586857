package io.tickwork.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One result in JMH's JSON output ({@code -rf json}): which benchmark, with which parameters,
 * scored what, and how much it allocated per operation (when run with {@code -prof gc}). Read with
 * Jackson's tree model by {@link #parse}. Immutable.
 */
final class JmhResult {
    final String benchmark; // fully qualified: package.Class.method
    final String mode; // thrpt, avgt, sample, ss
    final Map<String, String> params;
    final double score;
    final double error; // NaN when JMH could not compute one (single iteration)
    final double median; // of every measured iteration of every fork; NaN without rawData
    final String unit;
    final double allocBytesPerOp; // NaN without -prof gc
    final double allocError;
    /** The JVM that ran it ({@code jdkVersion}, {@code vmName} and {@code vmVersion}); "" when JMH did not say. */
    final String jvm;
    /** Forks it ran; 0 when JMH did not say. */
    final int forks;
    /**
     * Filed under another benchmark by a {@link ResultMapping}: {@link Report#groups()} joins it
     * to rows of real results. Set only by {@link #mappedTo}, on its copy, before anything sees it.
     */
    boolean mapped;

    JmhResult(
            String benchmark,
            String mode,
            Map<String, String> params,
            double score,
            double error,
            String unit,
            double allocBytesPerOp,
            double allocError) {
        this(benchmark, mode, params, score, error, Double.NaN, unit, allocBytesPerOp, allocError);
    }

    JmhResult(
            String benchmark,
            String mode,
            Map<String, String> params,
            double score,
            double error,
            double median,
            String unit,
            double allocBytesPerOp,
            double allocError) {
        this(benchmark, mode, params, score, error, median, unit, allocBytesPerOp, allocError, "", 0);
    }

    JmhResult(
            String benchmark,
            String mode,
            Map<String, String> params,
            double score,
            double error,
            double median,
            String unit,
            double allocBytesPerOp,
            double allocError,
            String jvm,
            int forks) {
        this.jvm = jvm;
        this.forks = forks;
        this.benchmark = benchmark;
        this.mode = mode;
        this.params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        this.score = score;
        this.error = error;
        this.median = median;
        this.unit = unit;
        this.allocBytesPerOp = allocBytesPerOp;
        this.allocError = allocError;
    }

    /** This result filed as {@code benchmark} with {@code params}: the same measurement, marked mapped. */
    JmhResult mappedTo(String benchmark, Map<String, String> params) {
        JmhResult copy = new JmhResult(
                benchmark, mode, params, score, error, median, unit, allocBytesPerOp, allocError, jvm, forks);
        copy.mapped = true;
        return copy;
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

    /**
     * Reads JMH's JSON, rejecting text after the document; thread safe, as a configured Jackson
     * mapper is.
     */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** JMH's modes: throughput, average time, sampled time, single shot. */
    static final List<String> MODES = List.of("thrpt", "avgt", "sample", "ss");

    /**
     * Reads every result of one JMH JSON document.
     *
     * @throws IOException if the text is not one JSON document (the message names the line and
     *     column)
     * @throws IllegalArgumentException if it is JSON but not an array of JMH results, or a result
     *     lacks its benchmark name, has a mode JMH does not have (the mode decides which way a
     *     ratio goes), or a score or measured iteration that is not a finite number
     */
    static List<JmhResult> parse(String jsonText) throws IOException {
        JsonNode root = JSON.readTree(jsonText);
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException(
                    "JMH JSON must be an array of results, got " + (root == null ? "nothing" : root.getNodeType()));
        }
        List<JmhResult> results = new ArrayList<>();
        for (JsonNode row : root) {
            Map<String, String> params = new LinkedHashMap<>();
            JsonNode p = row.get("params");
            if (p != null && p.isObject()) {
                p.fields().forEachRemaining(e -> params.put(e.getKey(), text(e.getValue())));
            }
            JsonNode primary = row.get("primaryMetric");
            if (primary == null || primary.isNull()) {
                throw new IllegalArgumentException("result without primaryMetric: " + text(row.get("benchmark")));
            }
            String benchmark = row.path("benchmark").textValue();
            if (benchmark == null || benchmark.indexOf('.') < 0) {
                throw new IllegalArgumentException(
                        "result without a benchmark name (package.Class.method): " + text(row.get("benchmark")));
            }
            String mode = row.path("mode").textValue();
            if (mode == null || !MODES.contains(mode)) {
                throw new IllegalArgumentException(benchmark + " " + params + ": mode " + text(row.get("mode"))
                        + " is none of JMH's " + MODES + " (the mode says which way a ratio goes)");
            }
            double score = number(primary.get("score"));
            if (!Double.isFinite(score)) {
                throw new IllegalArgumentException(benchmark + " " + params + ": score " + text(primary.get("score"))
                        + " is not a finite number (a benchmark that failed, or an edited file)");
            }
            double median = median(primary.get("rawData"));
            if (Double.isInfinite(median) || (Double.isNaN(median) && hasRawData(primary.get("rawData")))) {
                throw new IllegalArgumentException(
                        benchmark + " " + params + ": a measured iteration in rawData is not a finite number");
            }
            double alloc = Double.NaN;
            double allocErr = Double.NaN;
            JsonNode secondary = row.get("secondaryMetrics");
            if (secondary != null && secondary.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = secondary.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    // JMH names it "·gc.alloc.rate.norm" (with a leading middle dot)
                    if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                        alloc = number(e.getValue().get("score"));
                        allocErr = number(e.getValue().get("scoreError"));
                    }
                }
            }
            String jvm = String.join(
                            " ",
                            row.path("jdkVersion").asText(""),
                            row.path("vmName").asText(""),
                            row.path("vmVersion").asText(""))
                    .trim();
            results.add(new JmhResult(
                    benchmark,
                    mode,
                    params,
                    score,
                    number(primary.get("scoreError")),
                    median,
                    primary.path("scoreUnit").textValue(),
                    alloc,
                    allocErr,
                    jvm,
                    row.path("forks").asInt(0)));
        }
        return results;
    }

    /** Whether {@code rawData} holds any measured iteration. */
    private static boolean hasRawData(JsonNode rawData) {
        if (rawData == null || !rawData.isArray()) {
            return false;
        }
        for (JsonNode fork : rawData) {
            if (fork.size() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The median of JMH's {@code rawData} (forks × iterations): NaN when it is absent or holds a
     * value that is not a finite number ({@link #parse} refuses that), the middle value for an odd
     * count, the mean of the two middle ones for an even count.
     */
    static double median(JsonNode rawData) {
        if (rawData == null || !rawData.isArray()) {
            return Double.NaN;
        }
        java.util.List<Double> values = new java.util.ArrayList<>();
        for (JsonNode fork : rawData) {
            for (JsonNode v : fork) {
                double d = number(v);
                if (!Double.isFinite(d)) {
                    return Double.NaN;
                }
                values.add(d);
            }
        }
        if (values.isEmpty()) {
            return Double.NaN;
        }
        java.util.Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /** Benchmark, mode and parameters: what makes two results the same cell. */
    String key() {
        return benchmark + "|" + mode + "|" + params;
    }

    /** The median when JMH recorded the iterations, else the mean score. */
    double central() {
        return Double.isNaN(median) ? score : median;
    }

    /** A parameter value as text; JMH writes them as strings, a number reads as its double. */
    private static String text(JsonNode v) {
        if (v == null) {
            return "null";
        }
        return v.isNumber() ? String.valueOf(v.doubleValue()) : v.asText();
    }

    private static double number(JsonNode v) {
        if (v == null) {
            return Double.NaN;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) { // JMH writes "NaN" as a string
            try {
                return Double.parseDouble(v.textValue());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}
