/**
 * The {@code idle} tool: opens and holds many idle connections from one selector thread,
 * spread over source addresses of this machine so the ephemeral port range applies per address,
 * explains each operating-system limit it hits, stops its ramp before the machine runs out of
 * memory (a floor on MemAvailable), optionally runs the http-kit workload (idle, request, read,
 * repeat), and reports client and server memory per connection with the kernel's TCP memory;
 * {@code idle-merge} sums the JSON results of several runs.
 */
package io.tickwork.server.client.idle;
