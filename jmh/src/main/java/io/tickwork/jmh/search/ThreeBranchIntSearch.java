package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;

/**
 * Textbook iterative 3-way binary search, a baseline: {@link java.util.Arrays#binarySearch}'s loop
 * (two comparisons per step, exit on equality, then a step left to the first occurrence). Early exit
 * rarely pays: half the keys live in the last level. Memory: one copy of the array.
 */
final class ThreeBranchIntSearch implements IntSearch {
    private final int[] a;

    ThreeBranchIntSearch(int[] sortedCopy) {
        this.a = sortedCopy;
    }

    @Override
    public int indexOf(int key) {
        final int[] a = this.a;
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = a[mid];
            if (v < key) {
                lo = mid + 1;
            } else if (v > key) {
                hi = mid - 1;
            } else if (mid == lo || a[mid - 1] != key) {
                return mid;
            } else {
                hi = mid - 1; // an equal key further left: keep looking for the first one
            }
        }
        return -(lo + 1);
    }

    @Override
    public int size() {
        return a.length;
    }

    @Override
    public String toString() {
        return "THREE_BRANCH[n=" + size() + "]";
    }
}
