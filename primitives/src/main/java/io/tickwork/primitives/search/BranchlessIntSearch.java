package io.tickwork.primitives.search;

/** {@link IntSearchKind#BRANCHLESS}. */
final class BranchlessIntSearch implements IntSearch {
    private final int[] a;

    BranchlessIntSearch(int[] sortedCopy) {
        this.a = sortedCopy;
    }

    @Override
    public int indexOf(int key) {
        final int[] a = this.a;
        int n = a.length;
        if (n == 0) {
            return -1;
        }
        // invariant: the lower bound is in [base, base + len]; len only depends on n
        int base = 0;
        int len = n;
        while (len > 1) {
            int half = len >>> 1;
            // -1 if a[base + half] < key else 0; long arithmetic so MIN/MAX cannot overflow
            int lt = (int) (((long) a[base + half] - key) >> 63);
            base += half & lt;
            len -= half;
        }
        int i = base + (int) (((long) a[base] - key) >>> 63);
        return i < n && a[i] == key ? i : -(i + 1);
    }

    @Override
    public int size() {
        return a.length;
    }

    @Override
    public String toString() {
        return "BRANCHLESS[n=" + size() + "]";
    }
}
