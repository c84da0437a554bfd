package io.timelinearchive.hudibundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle as a writer's class path gets it: every class in it is ours or relocated under ours
 * (no Avro, Jackson, Netty or cloud SDK a writer could clash with), none is Hadoop's or Hudi's, and
 * next to Hudi 0.15's own jars (with their Avro 1.11) Hudi builds the callback from it and it
 * archives.
 */
class BundleJarIT {
  private static final Path BUNDLE =
      Path.of(System.getProperty("timeline-archive-hudi-bundle.jar"));
  private static final String CLASS_PATH = "io/timelinearchive/hudi/hudi-class-path.txt";

  @TempDir Path tmp;

  @Test
  void everyClassIsOursOrRelocatedAndNoneIsHadoopsOrHudis() throws IOException {
    List<String> classes = new ArrayList<>();
    try (JarFile jar = new JarFile(BUNDLE.toFile())) {
      jar.stream()
          .map(JarEntry::getName)
          .filter(n -> n.endsWith(".class"))
          .map(n -> n.replaceFirst("^META-INF/versions/\\d+/", ""))
          .forEach(classes::add);
    }
    assertThat(classes)
        .contains(
            "io/timelinearchive/hudi/TimelineArchiveCommitCallback.class",
            "io/timelinearchive/storage/s3/S3MetaStorageFactory.class",
            "io/timelinearchive/shaded/org/apache/avro/Schema.class",
            "io/timelinearchive/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
            "io/timelinearchive/shaded/io/netty/buffer/ByteBuf.class");
    assertThat(classes)
        .noneMatch(
            n ->
                n.startsWith("org/apache/avro/")
                    || n.startsWith("com/fasterxml/")
                    || n.startsWith("io/netty/")
                    || n.startsWith("software/amazon/")
                    || n.startsWith("com/google/")
                    || n.startsWith("com/azure/")
                    || n.startsWith("org/apache/hadoop/")
                    || n.startsWith("org/apache/hudi/")
                    || n.startsWith("org/slf4j/"));
    assertThat(classes).allMatch(n -> n.startsWith("io/timelinearchive/"));
  }

  @Test
  void hudiBuildsTheCallbackFromTheBundleAndItArchives() throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(BUNDLE.toUri().toURL());
    urls.add(testJarRoot());
    for (String jar : hudiClassPath().split(java.io.File.pathSeparator)) {
      urls.add(Path.of(jar).toUri().toURL());
    }
    Map<String, String> result;
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Class<?> driver = loader.loadClass("io.timelinearchive.hudi.BundleCheckDriver");
      // Hadoop finds its file systems through the context class loader, as on a writer's thread
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      thread.setContextClassLoader(loader);
      try {
        @SuppressWarnings("unchecked")
        Map<String, String> written =
            (Map<String, String>)
                driver
                    .getMethod("write", String.class, int.class)
                    .invoke(null, tmp.resolve("t").toString(), 16);
        result = written;
      } finally {
        thread.setContextClassLoader(previous);
      }
    }
    System.out.println("with the bundle next to Hudi 0.15: " + result);
    assertThat(result.get("callbackFrom")).endsWith("/timeline-archive-hudi-bundle.jar");
    assertThat(result.get("hudiAvroFrom")).contains("/avro-1.11");
    assertThat(result.get("failures")).as(result.get("lastFailure")).isEqualTo("0");
    assertThat(result.get("runs")).isEqualTo("16");
    assertThat(Integer.parseInt(result.get("instantsArchived"))).isPositive();
    assertThat(Integer.parseInt(result.get("mostActiveCommits"))).isLessThanOrEqualTo(10);
    assertThat(result.get("schemes").split(","))
        .contains("file", "hdfs", "s3", "s3a", "gs", "abfs", "abfss", "wasb", "wasbs");
  }

  /** Where archive-hudi's test classes are: its test-jar, or its test-classes folder. */
  private static URL testJarRoot() throws IOException {
    URL resource = BundleJarIT.class.getClassLoader().getResource(CLASS_PATH);
    assertThat(resource)
        .as(CLASS_PATH + " (archive-hudi's test-jar) on the class path")
        .isNotNull();
    String text = resource.toString();
    if (text.startsWith("jar:")) {
      return URI.create(text.substring(4, text.indexOf("!/"))).toURL();
    }
    return URI.create(text.substring(0, text.length() - CLASS_PATH.length())).toURL();
  }

  private static String hudiClassPath() throws IOException {
    try (InputStream in = BundleJarIT.class.getClassLoader().getResourceAsStream(CLASS_PATH)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }
}
