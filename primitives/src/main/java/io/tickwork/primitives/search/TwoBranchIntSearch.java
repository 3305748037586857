package io.tickwork.primitives.search;

/** {@link IntSearchKind#TWO_BRANCH}. */
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
