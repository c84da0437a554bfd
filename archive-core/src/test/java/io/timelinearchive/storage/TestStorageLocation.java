package io.timelinearchive.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestStorageLocation {
  @Test
  void testSchemeAuthorityPath() {
    assertThat(StorageLocation.of("s3://bucket/table/.hoodie"))
        .isEqualTo(new StorageLocation("s3", "bucket", "table/.hoodie"));
    assertThat(StorageLocation.of("hdfs://namenode:8020/t"))
        .isEqualTo(new StorageLocation("hdfs", "namenode:8020", "t"));
    assertThat(StorageLocation.of("abfss://container@account.dfs.core.windows.net/a/b"))
        .isEqualTo(new StorageLocation("abfss", "container@account.dfs.core.windows.net", "a/b"));
  }

  @Test
  void testSchemeIsLowerCasedAndAuthorityKept() {
    assertThat(StorageLocation.of("S3A://MyBucket/Key"))
        .isEqualTo(new StorageLocation("s3a", "MyBucket", "Key"));
  }

  @Test
  void testRootOfAnAuthority() {
    assertThat(StorageLocation.of("gs://bucket"))
        .isEqualTo(new StorageLocation("gs", "bucket", ""));
    assertThat(StorageLocation.of("gs://bucket/"))
        .isEqualTo(new StorageLocation("gs", "bucket", ""));
  }

  @Test
  void testSchemeWithoutAuthority() {
    // Hadoop writes local and default-file-system paths this way
    assertThat(StorageLocation.of("file:/tmp/t"))
        .isEqualTo(new StorageLocation("file", "", "tmp/t"));
    assertThat(StorageLocation.of("hdfs:/user/t"))
        .isEqualTo(new StorageLocation("hdfs", "", "user/t"));
    assertThat(StorageLocation.of("file:///tmp/t"))
        .isEqualTo(new StorageLocation("file", "", "tmp/t"));
  }

  @Test
  void testBareAbsolutePathIsLocal() {
    assertThat(StorageLocation.of("/data/t")).isEqualTo(new StorageLocation("file", "", "data/t"));
    assertThat(StorageLocation.of("/")).isEqualTo(new StorageLocation("file", "", ""));
  }

  @Test
  void testTrailingSlashesAndSurroundingBlanksAreDropped() {
    assertThat(StorageLocation.of("s3://b/t/.hoodie///"))
        .isEqualTo(new StorageLocation("s3", "b", "t/.hoodie"));
    assertThat(StorageLocation.of("/data/t/")).isEqualTo(new StorageLocation("file", "", "data/t"));
    assertThat(StorageLocation.of("  s3://b/t \n")).isEqualTo(new StorageLocation("s3", "b", "t"));
  }

  @Test
  void testKeysAreKeptAsWritten() {
    // not a URI: nothing is decoded or normalised
    assertThat(StorageLocation.of("s3://b/a b/100%/%20/x+y/k=v/caf\u00e9/q?x#y").path())
        .isEqualTo("a b/100%/%20/x+y/k=v/caf\u00e9/q?x#y");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "relative/path",
        "s3:bucket/key",
        ":/x",
        "://b/x",
        "1s3://b/x",
        "s_3://b/x",
        "s3://b/a//c",
        "s3://b/a/../c",
        "s3://b/./c",
        "s3://b/..",
        "/a/../b",
        "/a//b"
      })
  void testInvalidLocations(String text) {
    assertThatThrownBy(() -> StorageLocation.of(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + text + "'");
  }

  @Test
  void testConstructorChecksItsParts() {
    assertThatThrownBy(() -> new StorageLocation("s3", "b", "/a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StorageLocation("s3", "b", "a/"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StorageLocation("s3", "b/c", "a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StorageLocation("", "b", "a"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StorageLocation("s3", null, "a"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("authority is null");
  }

  @Test
  void testResolve() {
    StorageLocation table = StorageLocation.of("s3://b/t");

    assertThat(table.resolve(".hoodie")).isEqualTo(StorageLocation.of("s3://b/t/.hoodie"));
    assertThat(table.resolve(".hoodie/archived/.commits_.archive.1_1-0-1"))
        .isEqualTo(new StorageLocation("s3", "b", "t/.hoodie/archived/.commits_.archive.1_1-0-1"));
    assertThat(StorageLocation.of("gs://b").resolve("x")).isEqualTo(StorageLocation.of("gs://b/x"));
    assertThat(table.resolve("a b%2F+=").path()).isEqualTo("t/a b%2F+=");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/x", "..", ".", "a/../b", "a/./b", "a//b", "a/", "../x", "x/.."})
  void testResolveRejects(String child) {
    StorageLocation table = StorageLocation.of("s3://b/t");

    assertThatThrownBy(() -> table.resolve(child))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + child + "'");
  }

  @Test
  void testFileNameAndParent() {
    StorageLocation file = StorageLocation.of("s3://b/t/.hoodie/1.commit");

    assertThat(file.fileName()).isEqualTo("1.commit");
    assertThat(file.parent()).isEqualTo(StorageLocation.of("s3://b/t/.hoodie"));
    assertThat(StorageLocation.of("s3://b/t").fileName()).isEqualTo("t");
    assertThat(StorageLocation.of("s3://b/t").parent()).isEqualTo(StorageLocation.of("s3://b"));
    assertThat(StorageLocation.of("s3://b").fileName()).isEmpty();
    assertThatThrownBy(() -> StorageLocation.of("s3://b").parent())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("s3://b/");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://b/t/.hoodie",
        "s3://b",
        "hdfs:/user/t",
        "file:///",
        "/data/t",
        "gs://b/a b/100%/x+y/k=v/caf\u00e9",
        "wasbs://c@a.blob.core.windows.net/t",
        "hdfs://nn:8020/t"
      })
  void testToStringRoundTrip(String text) {
    StorageLocation location = StorageLocation.of(text);

    assertThat(StorageLocation.of(location.toString())).isEqualTo(location);
    assertThat(location.toString()).startsWith(location.scheme() + "://");
  }

  @Test
  void testToString() {
    assertThat(StorageLocation.of("/data/t")).hasToString("file:///data/t");
    assertThat(StorageLocation.of("s3://b/k")).hasToString("s3://b/k");
  }
}
