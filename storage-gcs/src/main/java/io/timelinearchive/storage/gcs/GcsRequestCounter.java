package io.timelinearchive.storage.gcs;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.LowLevelHttpRequest;
import com.google.api.client.http.javanet.NetHttpTransport;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client's HTTP transport, counting the requests it sends by JSON API operation. It counts
 * where a request goes on the wire (once per attempt, as the service bills), so the parts of a
 * batch, which travel inside the batch's body, are not counted: the batch is. {@link
 * GcsMetaStorage#serviceRequests()} reports its {@link #snapshot()}.
 */
final class GcsRequestCounter extends HttpTransport {
  private static final Method BUILD_REQUEST;

  static {
    try {
      // The one way to wrap a transport: its request factory method is protected.
      BUILD_REQUEST =
          HttpTransport.class.getDeclaredMethod("buildRequest", String.class, String.class);
      BUILD_REQUEST.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final HttpTransport delegate = new NetHttpTransport();
  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  @Override
  public boolean supportsMethod(String method) throws IOException {
    return delegate.supportsMethod(method);
  }

  @Override
  protected LowLevelHttpRequest buildRequest(String method, String url) throws IOException {
    counts.computeIfAbsent(operation(method, url), k -> new LongAdder()).increment();
    try {
      return (LowLevelHttpRequest) BUILD_REQUEST.invoke(delegate, method, url);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void shutdown() throws IOException {
    delegate.shutdown();
  }

  /** The requests sent so far, by operation name, sorted; a snapshot. */
  Map<String, Long> snapshot() {
    Map<String, Long> copy = new TreeMap<>();
    counts.forEach((operation, count) -> copy.put(operation, count.sum()));
    return Collections.unmodifiableMap(copy);
  }

  /** The JSON API's name for a request (e.g. {@code objects.get}), from its method and path. */
  static String operation(String method, String url) {
    String path = URI.create(url).getRawPath();
    String query = URI.create(url).getRawQuery();
    if (path.startsWith("/batch/")) {
      return "batch";
    }
    if (path.startsWith("/upload/")) {
      return "objects.insert(upload)";
    }
    int objects = path.indexOf("/o");
    boolean objectsCollection = objects >= 0 && path.endsWith("/o");
    boolean oneObject = objects >= 0 && path.indexOf("/o/", objects) >= 0;
    if (objectsCollection) {
      return method.equals("GET") ? "objects.list" : "objects." + method.toLowerCase();
    }
    if (oneObject) {
      return switch (method) {
        case "GET" ->
            query != null && query.contains("alt=media") ? "objects.get(media)" : "objects.get";
        case "DELETE" -> "objects.delete";
        case "PATCH", "PUT" -> "objects.patch";
        default -> "objects." + method.toLowerCase();
      };
    }
    return method + " " + path.replaceAll("/b/[^/]+", "/b/*");
  }
}
