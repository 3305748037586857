package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;

/**
 * Textbook iterative 2-way lower-bound search, a baseline: one comparison per step, always about
 * log2(n) steps, then one equality check. The comparison is a data-dependent branch the CPU
 * mispredicts half the time. Memory: one copy of the array.
 */
final class TwoBranchIntSearch implements IntSearch {
    private final int[] a;

    TwoBranchIntSearch(int[] sortedCopy) {
        this.a = sortedCopy;
    }

    @Override
    public int indexOf(int key) {
        final int[] a = this.a;
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < a.length && a[lo] == key ? lo : -(lo + 1);
    }

    @Override
    public int size() {
        return a.length;
    }

    @Override
    public String toString() {
        return "TWO_BRANCH[n=" + size() + "]";
    }
}
