package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Apache Hudi 1.0.1's side of the 1.x figures: archive-bench-hudi1's main classes (its write
 * client, its archiver, its reader), each run in a JVM of its own on that module's class path (its
 * jar, then the jars listed in the jar), never on this JVM's, which holds Hudi 0.15. This JVM never
 * loads those classes: it names them.
 */
final class Hudi1Side {
  static final String WRITER = "io.timelinearchive.bench.hudi1.Hudi1Writer";
  static final String ARCHIVER = "io.timelinearchive.bench.hudi1.Hudi1ArchiveChild";
  static final String CHECK = "io.timelinearchive.bench.hudi1.Hudi1TimelineCheck";
  private static final String CLASS_PATH_RESOURCE = "io/timelinearchive/bench/hudi1/class-path.txt";

  /**
   * P1's settings ({@link ArchivalFigure#SETTINGS}) under Hudi 1.0.1's keys as well: 1.x renamed
   * the cleaner's ({@code hoodie.clean.*}) and still reads the old names as alternatives.
   */
  static final Map<String, String> SETTINGS =
      Map.of(
          "hoodie.keep.min.commits", ArchivalFigure.SETTINGS.get("hoodie.keep.min.commits"),
          "hoodie.keep.max.commits", ArchivalFigure.SETTINGS.get("hoodie.keep.max.commits"),
          "hoodie.commits.archival.batch",
              ArchivalFigure.SETTINGS.get("hoodie.commits.archival.batch"),
          "hoodie.cleaner.policy", ArchivalFigure.SETTINGS.get("hoodie.cleaner.policy"),
          "hoodie.clean.policy", ArchivalFigure.SETTINGS.get("hoodie.cleaner.policy"),
          "hoodie.cleaner.commits.retained",
              ArchivalFigure.SETTINGS.get("hoodie.cleaner.commits.retained"),
          "hoodie.clean.commits.retained",
              ArchivalFigure.SETTINGS.get("hoodie.cleaner.commits.retained"));

  private final String classPath;

  private Hudi1Side(String classPath) {
    this.classPath = classPath;
  }

  /** archive-bench-hudi1 as this JVM's class path finds it (its jar or its classes folder). */
  static Hudi1Side locate() throws IOException {
    URL listing = Hudi1Side.class.getClassLoader().getResource(CLASS_PATH_RESOURCE);
    if (listing == null) {
      throw new IllegalStateException(
          "archive-bench-hudi1 is not on the class path (no "
              + CLASS_PATH_RESOURCE
              + "): build with ./mvnw -pl archive-bench -am package -DskipTests");
    }
    Path root;
    try {
      if (listing.getProtocol().equals("jar")) {
        root = Path.of(((JarURLConnection) listing.openConnection()).getJarFileURL().toURI());
      } else {
        Path file = Path.of(listing.toURI());
        root = file;
        for (int i = 0; i < CLASS_PATH_RESOURCE.split("/").length; i++) {
          root = root.getParent();
        }
      }
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate archive-bench-hudi1 from " + listing, e);
    }
    String jars;
    try (InputStream in = listing.openStream()) {
      jars = new String(in.readAllBytes(), UTF_8).strip();
    }
    return new Hudi1Side(root + File.pathSeparator + jars);
  }

  /** Hudi 1.0.1's class path: archive-bench-hudi1's jar (or classes), then its dependencies. */
  String classPath() {
    return classPath;
  }

  /** {@code mainClass}'s {@code main} in a JVM of its own on Hudi 1.0.1's class path. */
  ChildJvm.Outcome run(String mainClass, List<String> arguments, Path logs)
      throws IOException, InterruptedException {
    return ChildJvm.runMain(mainClass, classPath, arguments, logs);
  }

  /**
   * Hudi 1.0.1's write client writes the narrow table of {@code commits} commits at {@code dir}.
   */
  void write(Path dir, int commits, Path logs) throws IOException, InterruptedException {
    run(WRITER, List.of(dir.toString(), String.valueOf(commits)), logs)
        .requireSuccess("Hudi 1.0.1's writer on " + dir);
  }

  /** One run of Hudi 1.0.1's archiver on {@code table} with P1's settings. */
  ChildJvm.Outcome archive(Path table, Path logs) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of(table.toString(), HudiWriter.TABLE_NAME));
    SETTINGS.forEach((k, v) -> args.add(k + "=" + v));
    return run(ARCHIVER, args, logs).requireSuccess("Hudi 1.0.1's archiver on " + table);
  }

  /**
   * Hudi 1.0.1 reads {@code table}'s active and archived timelines and every instant's content (see
   * archive-bench-hudi1's {@code Hudi1TimelineCheck}); the outcome, successful or not.
   */
  ChildJvm.Outcome check(Path table, Path logs) throws IOException, InterruptedException {
    return run(CHECK, List.of(table.toString()), logs);
  }
}
