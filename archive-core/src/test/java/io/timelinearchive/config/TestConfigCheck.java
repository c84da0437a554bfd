package io.timelinearchive.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestConfigCheck {
  private static final Setting<Integer> MIN =
      Setting.integer("hoodie.keep.min.commits").defaultValue(20).build();
  private static final Setting<String> REGION = Setting.text("s3.region").build();
  private static final Setting<Boolean> PATH_STYLE = Setting.bool("s3.path-style-access").build();
  private static final Setting<String> SCHEMES = Setting.text("hadoop.schemes").build();
  private static final List<SettingNamespace> NAMESPACES =
      List.of(
          SettingNamespace.shared("hoodie.", List.of(MIN)),
          SettingNamespace.exclusive("s3.", List.of(REGION, PATH_STYLE)),
          SettingNamespace.passedOn("hadoop.", List.of(SCHEMES)));

  @Test
  void aMisspeltKeyOfOursFailsWithASuggestion() {
    assertThatThrownBy(() -> ConfigCheck.check(Map.of("hoodie.keep.min.comits", "5"), NAMESPACES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown setting hoodie.keep.min.comits; did you mean hoodie.keep.min.commits?");
  }

  @Test
  void anyUnknownKeyUnderAnExclusivePrefixFailsNamingTheKnownOnes() {
    assertThatThrownBy(
            () ->
                ConfigCheck.check(
                    Map.of("s3.path-style", "true", "s3.regoin", "x", "s3.zzz", "1"), NAMESPACES))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "unknown settings s3.path-style, s3.regoin, s3.zzz; did you mean s3.path-style-access,"
                + " s3.region?")
        .hasMessageEndingWith("the s3.* settings are s3.path-style-access, s3.region");
  }

  @Test
  void otherToolsKeysAreAcceptedAndListedAsIgnored() {
    List<String> ignored =
        ConfigCheck.check(
            Map.of(
                "hoodie.datasource.write.recordkey.field", "id",
                "hoodie.compact.inline", "true",
                "hoodie.keep.min.commits", "5",
                "hadoop.fs.defaultFS", "hdfs://nn",
                "spark.executor.memory", "4g"),
            NAMESPACES);
    assertThat(ignored)
        .containsExactly(
            "hoodie.compact.inline",
            "hoodie.datasource.write.recordkey.field",
            "spark.executor.memory");
  }

  @Test
  void aMisspeltKeyUnderAPassedOnPrefixFails() {
    assertThatThrownBy(() -> ConfigCheck.check(Map.of("hadoop.schemas", "ofs"), NAMESPACES))
        .hasMessageContaining("did you mean hadoop.schemes?");
  }

  @Test
  void distanceCountsASwapAsOneEdit() {
    assertThat(ConfigCheck.distance("s3.regoin", "s3.region")).isEqualTo(1);
    assertThat(ConfigCheck.distance("abc", "abc")).isZero();
    assertThat(ConfigCheck.distance("", "abc")).isEqualTo(3);
  }
}
