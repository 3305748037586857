package io.tickwork.primitives.search;

import java.util.Objects;

/**
 * What the batch lookups share: the bounds check of {@link IntSearch#indexOf(int[], int, int, int[])}
 * and the group size of their lockstep walks.
 *
 * <p>A group of {@link #GROUP} queries walks the structure one level at a time, every query of the
 * group taking its step before any takes the next, so the loads of one level are independent and
 * the CPU keeps up to {@code GROUP} cache misses in flight; a single lookup has one at a time. 16
 * is about the number of L1 miss buffers of current x86 and Arm cores: more queries per group do
 * not overlap more misses, and cost registers and scratch space.
 */
final class Lockstep {

    static final int GROUP = 16;

    private Lockstep() {}

    /**
     * The end of the group that starts at {@code base}: at most {@link #GROUP} queries, never past
     * {@code to}. Loops step {@code base = groupEnd(base, to)}: {@code base += GROUP} would wrap
     * past {@code Integer.MAX_VALUE} when {@code to} is within a group of it, and never end.
     */
    static int groupEnd(int base, int to) {
        return base + Math.min(GROUP, to - base);
    }

    static void check(int[] queries, int from, int to, int[] out) {
        Objects.requireNonNull(queries, "queries");
        Objects.requireNonNull(out, "out");
        if (from < 0 || from > to || to > queries.length || to > out.length) {
            throw new IndexOutOfBoundsException("range [" + from + ", " + to + ") out of bounds for queries of length "
                    + queries.length + " and out of length " + out.length + " (out is indexed like queries)");
        }
    }
}
