/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.benchmarks.report;

import java.nio.file.Path;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.distlock.benchmarks.BenchmarkFiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ResultSet}.
 */
class ResultSetTests {

	@TempDir
	Path results;

	@Test
	void throughputReadsOnlyTheFilesOfItsOwnKeyWhenAnotherKeyBeginsWithIt() {
		jmh("breakdown", "template", 1000);
		jmh("breakdown", "template-redis-fence", 500);
		ResultSet results = ResultSet.load(this.results);
		assertThat(results.throughput("breakdown", "template")).hasValueSatisfying((summary) -> {
			assertThat(summary.mean()).isEqualTo(1000);
			assertThat(summary.count()).isEqualTo(1);
		});
		assertThat(results.runs("breakdown", "template")).isEqualTo(1);
	}

	@Test
	void handoffReadsOnlyTheFilesOfItsOwnContenderWhenAnotherIdBeginsWithIt() {
		handoff("spring-integration", 400);
		handoff("spring-integration-spin", 50_000);
		ResultSet results = ResultSet.load(this.results);
		assertThat(results.handoffRuns("spring-integration")).isEqualTo(1);
		assertThat(results.handoff("spring-integration"))
			.hasValueSatisfying((p) -> assertThat(p.max()).isLessThan(500));
	}

	private void jmh(String scenario, String key, double throughput) {
		BenchmarkFiles.writeString(BenchmarkFiles.jmh(this.results, scenario).resolve(key + "-r1.json"),
				"[{\"primaryMetric\":{\"rawData\":[[" + throughput + "]]}}]");
	}

	private void handoff(String contender, long micros) {
		Histogram histogram = new Histogram(3);
		histogram.recordValue(micros * 1000);
		BenchmarkFiles.writeString(this.results.resolve("handoff").resolve(contender + "-r1.json"),
				"{\"histogram\":\"" + BenchmarkFiles.encode(histogram) + "\"}");
	}

}
