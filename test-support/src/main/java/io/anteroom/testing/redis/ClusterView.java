package io.anteroom.testing.redis;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One node's {@code CLUSTER NODES} reply, parsed: who it knows, who is a primary, and which slots
 * each primary serves.
 */
record ClusterView(List<ClusterView.Node> nodes) {

  /**
   * One line of the reply.
   *
   * @param id the node id
   * @param port the data port
   * @param flags e.g. {@code myself,master}
   * @param primaryId for a replica, the id of its primary; {@code -} for a primary
   * @param connected whether the link is {@code connected}
   * @param slots the slot ranges, e.g. {@code 0-5460}
   */
  record Node(
      String id,
      int port,
      List<String> flags,
      String primaryId,
      boolean connected,
      List<String> slots) {

    boolean primary() {
      return flags.contains("master") && !failing();
    }

    boolean failing() {
      return flags.contains("fail") || flags.contains("fail?") || flags.contains("handshake");
    }

    boolean serves(int slot) {
      for (String range : slots) {
        if (range.startsWith("[")) {
          continue; // a slot being migrated or imported, still served by its owner
        }
        String[] bounds = range.split("-");
        int from = Integer.parseInt(bounds[0]);
        int to = Integer.parseInt(bounds[bounds.length - 1]);
        if (slot >= from && slot <= to) {
          return true;
        }
      }
      return false;
    }
  }

  static ClusterView of(String reply) {
    return new ClusterView(
        reply.lines().filter(line -> !line.isBlank()).map(ClusterView::parse).toList());
  }

  private static Node parse(String line) {
    String[] f = line.trim().split(" ");
    String address = f[1].split("@")[0];
    int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    return new Node(
        f[0],
        port,
        List.of(f[2].split(",")),
        f[3],
        "connected".equals(f[7]),
        List.copyOf(Arrays.asList(f).subList(8, f.length)));
  }

  /** The primary serving {@code slot}, if this node knows one. */
  Optional<Node> primaryOf(int slot) {
    return nodes.stream().filter(n -> n.primary() && n.serves(slot)).findFirst();
  }

  /** The node listening on {@code port}, if known. */
  Optional<Node> byPort(int port) {
    return nodes.stream().filter(n -> n.port() == port).findFirst();
  }

  /** Whether this node knows {@code count} nodes, all reachable and past the handshake. */
  boolean knowsAll(int count) {
    return nodes.size() == count && nodes.stream().allMatch(n -> !n.failing());
  }
}
