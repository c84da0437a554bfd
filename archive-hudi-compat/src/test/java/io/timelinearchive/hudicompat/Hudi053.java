package io.timelinearchive.hudicompat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Apache Hudi 0.5.3, run from archive-hudi05's test-jar in a class loader of its own. Hudi 0.5.3
 * has the class names of the Hudi 0.15 on this module's class path, and needs Avro 1.8.2, Jackson
 * 2.6 and Hadoop 2.7.3 where this class path has Avro 1.11, Jackson 2.20 and the shaded Hadoop 3.5
 * client; so its loader's parent is the platform loader, and nothing but JDK types crosses: the
 * driver {@code io.timelinearchive.hudi05.Hudi05} takes and returns strings, lists and maps.
 */
final class Hudi053 {
  private static final String DRIVER = "io.timelinearchive.hudi05.Hudi05";
  private static final String CLASS_PATH = "io/timelinearchive/hudi05/class-path.txt";
  private static final ClassLoader LOADER = loader();

  private Hudi053() {}

  /** Hudi 0.5.3's timeline classes write a table; see archive-hudi05's {@code Hudi05Tables}. */
  static void writeTable(Path base, String tableType, int layoutVersion, List<String> steps) {
    call("writeTable", base.toString(), tableType, layoutVersion, steps);
  }

  /** Every instant file 0.5.3 lists in the active timeline. */
  @SuppressWarnings("unchecked")
  static List<String> activeInstantFiles(Path base, int layoutVersion) {
    return (List<String>) call("activeInstantFiles", base.toString(), layoutVersion);
  }

  /** 0.5.3's {@code HoodieCommitArchiveLog.archive} of these instant files, in this order. */
  static void archive(Path base, int layoutVersion, List<String> instantFiles, int batch) {
    call("archive", base.toString(), layoutVersion, instantFiles, batch);
  }

  /** Per block: {@code "<file> <type>"}, then the JSON of each record, by 0.5.3's log reader. */
  @SuppressWarnings("unchecked")
  static List<List<String>> scanArchive(Path base, int layoutVersion) {
    return (List<List<String>>) call("scanArchive", base.toString(), layoutVersion);
  }

  /** {@code "<time> <action> <state>"} of each instant of 0.5.3's archived timeline. */
  @SuppressWarnings("unchecked")
  static List<String> archivedInstants(Path base, int layoutVersion) {
    return (List<String>) call("archivedInstants", base.toString(), layoutVersion);
  }

  /** The details 0.5.3's archived timeline gives, by instant time. */
  @SuppressWarnings("unchecked")
  static Map<String, String> archivedDetails(Path base, int layoutVersion) {
    return (Map<String, String>) call("archivedDetails", base.toString(), layoutVersion);
  }

  /** File id to path of the files a commit's JSON names, as 0.5.3 parses it. */
  @SuppressWarnings("unchecked")
  static Map<String, String> filesWritten(String commitJson) {
    return (Map<String, String>) call("filesWritten", commitJson);
  }

  /** What 0.5.3 threw: its exception's class name and message, for tests that expect one. */
  static final class Failure extends RuntimeException {
    private final String type;

    Failure(Throwable cause) {
      super(cause.getClass().getName() + ": " + cause.getMessage(), cause);
      this.type = cause.getClass().getName();
    }

    String type() {
      return type;
    }
  }

  private static Object call(String method, Object... args) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // Hadoop 2's Configuration and log4j find their resources through the context loader
    thread.setContextClassLoader(LOADER);
    try {
      Class<?> driver = Class.forName(DRIVER, true, LOADER);
      Method target =
          Arrays.stream(driver.getMethods())
              .filter(m -> m.getName().equals(method))
              .findFirst()
              .orElseThrow(() -> new IllegalArgumentException("no " + method + " in " + DRIVER));
      return target.invoke(null, args);
    } catch (InvocationTargetException e) {
      throw new Failure(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot call Hudi 0.5.3's " + method, e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * The driver's own classes (archive-hudi05's test-jar, or its test-classes folder in a reactor
   * build that stops before packaging) and the class path listed in it.
   */
  private static ClassLoader loader() {
    ClassLoader here = Hudi053.class.getClassLoader();
    URL list = here.getResource(CLASS_PATH);
    if (list == null) {
      throw new IllegalStateException(
          CLASS_PATH + " is missing: archive-hudi05's test-jar is not on the class path");
    }
    try (InputStream in = list.openStream()) {
      List<URL> urls = new ArrayList<>();
      urls.add(driverRoot(list));
      for (String entry :
          new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split(File.pathSeparator)) {
        urls.add(new File(entry).toURI().toURL());
      }
      return new URLClassLoader(
          "hudi-0.5.3", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static URL driverRoot(URL list) throws MalformedURLException {
    String url = list.toString();
    String root = url.substring(0, url.length() - CLASS_PATH.length());
    if (root.startsWith("jar:") && root.endsWith("!/")) {
      return new URL(root.substring("jar:".length(), root.length() - 2));
    }
    return new URL(root);
  }
}
