package io.timelinearchive.bench;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables Apache Hudi 0.15 wrote, lengthened to a size, built once and kept under {@code
 * archive-bench/target/hudi-tables/} (a build's {@code clean} removes them), so that re-runs start
 * at once. A table is built in a scratch folder and renamed into place, so a run stopped half way
 * leaves no half table to be taken for a whole one.
 */
final class HudiWrittenTables {
  private static final Logger LOG = LoggerFactory.getLogger(HudiWrittenTables.class);

  /** A built table: where it is and how many instant files its timeline holds. */
  record Table(Path dir, HudiWriter.Shape shape, int instantFiles) {}

  private final Path cache;

  HudiWrittenTables(Path cache) {
    this.cache = cache;
  }

  /** The cache next to the running bench's jar or classes: {@code archive-bench/target/}. */
  static HudiWrittenTables besideBuild() throws IOException {
    String override = System.getProperty("bench.table-cache");
    return new HudiWrittenTables(
        override != null ? Path.of(override) : benchTarget().resolve("hudi-tables"));
  }

  /** archive-bench/target: the folder of the running bench's jar (or of its classes). */
  static Path benchTarget() throws IOException {
    try {
      Path code =
          Path.of(
              HudiWrittenTables.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return code.toAbsolutePath().getParent();
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate the bench's build folder", e);
    }
  }

  /** {@code shape}'s table lengthened to at least {@code instantFiles} instant files. */
  Table get(HudiWriter.Shape shape, int instantFiles) throws Exception {
    Path dir = cache.resolve(shape.name() + "-" + instantFiles);
    if (!Files.isDirectory(dir)) {
      Path base = base(shape);
      Path scratch = cache.resolve(dir.getFileName() + ".building");
      Tables.delete(scratch);
      Tables.copy(base, scratch);
      int files = TimelineLengthener.lengthen(scratch, instantFiles);
      Files.move(scratch, dir, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("built {} ({} instant files)", dir, files);
    }
    return new Table(
        dir,
        shape,
        TimelineLengthener.instantFiles(dir.resolve(".hoodie")).values().stream()
            .mapToInt(java.util.List::size)
            .sum());
  }

  /** The small table Hudi's write client wrote, as it left it. */
  private Path base(HudiWriter.Shape shape) throws Exception {
    Path base = cache.resolve(shape.name() + "-written");
    if (!Files.isDirectory(base)) {
      Path scratch = cache.resolve(base.getFileName() + ".building");
      Tables.delete(scratch);
      Files.createDirectories(cache);
      LOG.info(
          "writing the {} table with Hudi's write client ({} commits)",
          shape.name(),
          shape.commits());
      HudiWriter.write(scratch, shape);
      Files.move(scratch, base, StandardCopyOption.ATOMIC_MOVE);
    }
    return base;
  }
}
