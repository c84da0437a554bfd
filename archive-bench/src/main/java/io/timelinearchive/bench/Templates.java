package io.timelinearchive.bench;

import io.timelinearchive.sample.SampleTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Sample tables written once per size and run, for the figures to copy. */
final class Templates {
  record Template(Path dir, SampleTable.Written written) {}

  private final Path root;
  private final Map<Integer, Template> bySize = new HashMap<>();

  Templates(Path root) {
    this.root = root;
  }

  Template get(int instantFiles) throws IOException {
    Template t = bySize.get(instantFiles);
    if (t == null) {
      Path dir = root.resolve("template-" + instantFiles);
      Tables.delete(dir);
      t = new Template(dir, Tables.write(dir, Tables.spec(instantFiles)));
      bySize.put(instantFiles, t);
    }
    return t;
  }
}
