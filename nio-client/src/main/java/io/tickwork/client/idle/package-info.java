/**
 * The {@code idle} tool: opens and holds many idle connections from one selector thread,
 * spread over source addresses of this machine so the ephemeral port range applies per address,
 * explains each operating-system limit it hits, stops its ramp before the machine runs out of
 * memory (a floor on MemAvailable), optionally runs the http-kit workload (idle, request, read,
 * repeat), and reports client and server memory per connection with the kernel's TCP memory.
 * With {@code --processes N} a parent ({@code IdleFleet}) splits the run among N child JVMs
 * ({@code FleetPlan}), past one process's open-file limit, each child from its own source
 * addresses; it follows their JSON lines, stops every ramp when memory runs low, and sums their
 * reports ({@code FleetReport}). {@code idle-merge} sums the JSON results of several runs.
 */
package io.tickwork.client.idle;
