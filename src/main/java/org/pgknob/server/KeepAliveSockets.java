package org.pgknob.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.Properties;
import javax.net.SocketFactory;
import jdk.net.ExtendedSocketOptions;

/**
 * The sockets of pgknob's connections to a server it does not manage: TCP keepalives after {@value
 * #IDLE_SECONDS} s without traffic, every {@value #INTERVAL_SECONDS} s, {@value #PROBES} unanswered
 * in a row ending the connection, as libpq's {@code keepalives_idle}, {@code keepalives_interval}
 * and {@code keepalives_count} would.
 *
 * <p>Why: a statement without a timeout of its own (a reset's CREATE DATABASE from the pristine
 * copy, a CHECKPOINT, either of which may rightly take minutes) waits for the server's reply on an
 * idle connection. When the server's host stops answering (a dropped link, a host powered off),
 * nothing arrives and, without keepalives, the operating system's default (two hours of silence
 * before the first probe) held the session that long. The host's kernel answers the probes for as
 * long as the host is up, however busy the server, so a slow statement is never cut short; a host
 * that answers nothing ends it about {@value #IDLE_SECONDS} + {@value #PROBES} x {@value
 * #INTERVAL_SECONDS} s after its last reply, and the session's wait for the server takes over. What
 * keepalives cannot cover: a query whose own bytes the server never acknowledged (the link dropped
 * while it was being sent), which the kernel retransmits for up to about 15 minutes.
 *
 * <p>pgjdbc instantiates it by name ({@link #apply}); it also sets {@code tcpKeepAlive}, which
 * pgjdbc applies after creating the socket and would otherwise turn keepalives off again.
 */
public final class KeepAliveSockets extends SocketFactory {
  static final int IDLE_SECONDS = 10;
  static final int INTERVAL_SECONDS = 5;
  static final int PROBES = 3;

  /** Makes pgjdbc open the connections of {@code props} through this factory. */
  public static Properties apply(Properties props) {
    props.setProperty("socketFactory", KeepAliveSockets.class.getName());
    props.setProperty("tcpKeepAlive", "true");
    return props;
  }

  /** pgjdbc's way in: an unconnected socket, which it connects with its own timeout. */
  @Override
  public Socket createSocket() throws IOException {
    Socket socket = new Socket();
    socket.setKeepAlive(true);
    try {
      socket.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, IDLE_SECONDS);
      socket.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, INTERVAL_SECONDS);
      socket.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, PROBES);
    } catch (UnsupportedOperationException | SocketException e) {
      // A platform without these options keeps its own keepalive timing.
    }
    return socket;
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return connected(
        new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port), null);
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return connected(
        new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
  }

  private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
    Socket socket = createSocket();
    if (local != null) {
      socket.bind(local);
    }
    socket.connect(remote);
    return socket;
  }
}
