package io.tickwork.jmh.search;

import io.tickwork.primitives.search.IntSearch;

/**
 * Textbook recursive 3-way binary search, a baseline: exit on equality, then step left to the first
 * occurrence; recursion costs a call per level. Memory: one copy of the array.
 */
final class RecursiveIntSearch implements IntSearch {
    private final int[] a;

    RecursiveIntSearch(int[] sortedCopy) {
        this.a = sortedCopy;
    }

    @Override
    public int indexOf(int key) {
        return search(a, key, 0, a.length - 1);
    }

    private static int search(int[] a, int key, int lo, int hi) {
        if (lo > hi) {
            return -(lo + 1);
        }
        int mid = (lo + hi) >>> 1;
        int v = a[mid];
        if (v < key) {
            return search(a, key, mid + 1, hi);
        }
        if (v > key) {
            return search(a, key, lo, mid - 1);
        }
        // equal: the first occurrence is mid unless its left neighbour (inside the range) is equal too
        if (mid == lo || a[mid - 1] != key) {
            return mid;
        }
        return search(a, key, lo, mid - 1);
    }

    @Override
    public int size() {
        return a.length;
    }

    @Override
    public String toString() {
        return "RECURSIVE[n=" + size() + "]";
    }
}
