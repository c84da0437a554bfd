package io.timelinearchive.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import io.timelinearchive.testing.FaultProxy.Fault;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;

/** Reading HTTP/1.1 messages off a socket as the proxy forwards them: heads, bodies, chunks. */
final class HttpMessages {
  private HttpMessages() {}

  /** The head up to and including the blank line, or null at a clean end of stream. */
  static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new EOFException("end of stream inside a head");
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(ISO_8859_1);
  }

  static String header(String head, String name) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
        return line.substring(colon + 1).trim();
      }
    }
    return null;
  }

  static boolean isChunked(String head) {
    String encoding = header(head, "transfer-encoding");
    return encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked");
  }

  static String withoutHeader(String head, String name) {
    StringBuilder kept = new StringBuilder();
    for (String line : head.split("\r\n", -1)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
        continue;
      }
      kept.append(line).append("\r\n");
    }
    // split kept the two empty strings after the final CRLFCRLF: drop the extra CRLF
    return kept.substring(0, kept.length() - 2);
  }

  /** The raw body bytes (chunk framing included) as announced by the head. */
  static byte[] readBody(InputStream in, String head, boolean noBody) throws IOException {
    String firstLine = head.substring(0, head.indexOf("\r\n"));
    if (noBody || firstLine.matches("HTTP/\\S+ (1\\d\\d|204|304) .*")) {
      return new byte[0];
    }
    String length = header(head, "content-length");
    if (isChunked(head)) {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      while (true) {
        String sizeLine = readLine(in, raw);
        int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
        if (size == 0) {
          while (!readLine(in, raw).isEmpty()) {
            // trailers
          }
          return raw.toByteArray();
        }
        raw.write(in.readNBytes(size + 2));
      }
    }
    if (length != null) {
      int n = Integer.parseInt(length);
      byte[] body = in.readNBytes(n);
      if (body.length != n) {
        throw new EOFException("body shorter than Content-Length");
      }
      return body;
    }
    if (firstLine.startsWith("HTTP/")) {
      return in.readAllBytes(); // a response delimited by the end of the connection
    }
    return new byte[0];
  }

  static String readLine(InputStream in, ByteArrayOutputStream copy) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("end of stream inside a chunked body");
      }
      copy.write(b);
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, ISO_8859_1);
      }
      line.write(b);
      previous = b;
    }
  }

  /** The data of a chunked body, without its framing (trailers dropped). */
  static byte[] unchunked(byte[] raw) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int at = 0;
    while (at < raw.length) {
      int lineEnd = at;
      while (lineEnd + 1 < raw.length && !(raw[lineEnd] == '\r' && raw[lineEnd + 1] == '\n')) {
        lineEnd++;
      }
      String sizeLine = new String(Arrays.copyOfRange(raw, at, lineEnd), ISO_8859_1);
      int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      int start = lineEnd + 2;
      data.write(raw, start, Math.min(size, raw.length - start));
      at = start + size + 2;
    }
    return data.toByteArray();
  }

  /** An injected answer to the client, then the end of the connection. */
  static void respond(OutputStream toClient, Fault fault) throws IOException {
    byte[] body = fault.body().getBytes(UTF_8);
    String response =
        "HTTP/1.1 "
            + fault.status()
            + " Injected\r\nContent-Type: "
            + fault.contentType()
            + "\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    toClient.write(response.getBytes(ISO_8859_1));
    toClient.write(body);
    toClient.flush();
  }
}
