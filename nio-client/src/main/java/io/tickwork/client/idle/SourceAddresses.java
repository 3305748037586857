package io.tickwork.client.idle;

import io.tickwork.client.common.UsageException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The source addresses {@code idle} binds its sockets to: {@code k} consecutive IPv4 addresses
 * from a first one (first, first+1, ...; addresses ending in .0 or .255 are skipped), each an
 * address of this machine: a loopback address (the kernel answers for all of 127.0.0.0/8) or
 * one assigned to a network interface. Anything else is a {@link UsageException} naming the
 * address, since a bind to it would fail. Stateless; one pass over the interfaces per call.
 */
final class SourceAddresses {
    private SourceAddresses() {}

    static List<InetAddress> from(InetAddress first, int k) {
        byte[] b = first.getAddress();
        if (b.length != 4) {
            throw new UsageException("--first-source must be an IPv4 address: " + first.getHostAddress());
        }
        Set<InetAddress> local = interfaceAddresses();
        if (!isLocal(first, local)) {
            throw new UsageException("--first-source " + first.getHostAddress()
                    + " is not an address of this machine (no interface has it; add it to one, e.g."
                    + " ip addr add " + first.getHostAddress() + "/24 dev <interface>)");
        }
        long base = ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
        boolean loopback = first.isLoopbackAddress();
        List<InetAddress> out = new ArrayList<>(k);
        for (long x = base; out.size() < k; x++) {
            if (x > 0xffff_ffffL || (loopback && (x >>> 24) != 127)) {
                throw new UsageException("--sources " + k + " from " + first.getHostAddress() + " runs past "
                        + (loopback ? "127.255.255.255" : "255.255.255.255"));
            }
            if ((x & 0xff) == 0 || (x & 0xff) == 255) {
                continue; // network and broadcast-looking addresses
            }
            InetAddress a = address(x);
            if (!isLocal(a, local)) {
                throw new UsageException("--sources " + k + " from " + first.getHostAddress() + " needs "
                        + a.getHostAddress() + ", which is not an address of this machine");
            }
            out.add(a);
        }
        return out;
    }

    /** Loopback, listed on an interface, or found by the kernel's own lookup (aliases). */
    static boolean isLocal(InetAddress a, Set<InetAddress> interfaceAddresses) {
        if (a.isLoopbackAddress() || interfaceAddresses.contains(a)) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** Every address of every network interface of this machine; empty if they cannot be listed. */
    static Set<InetAddress> interfaceAddresses() {
        Set<InetAddress> all = new HashSet<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.addAll(Collections.list(ni.getInetAddresses()));
            }
        } catch (SocketException e) {
            return all;
        }
        return all;
    }

    private static InetAddress address(long x) {
        try {
            return InetAddress.getByAddress(
                    new byte[] {(byte) (x >>> 24), (byte) (x >>> 16), (byte) (x >>> 8), (byte) x});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // four bytes are always a valid address
        }
    }
}
