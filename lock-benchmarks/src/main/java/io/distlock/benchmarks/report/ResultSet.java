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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;

import io.distlock.benchmarks.BenchmarkFiles;

/**
 * Everything one run left in its results directory, combined across forks and rounds: JMH
 * throughput and allocation per scenario and contender, the latency histograms, the
 * handoff and renewal measurements, overlap markers and the machine description.
 */
final class ResultSet {

	private static final ObjectMapper json = new ObjectMapper();

	private final Path results;

	private final JsonNode machine;

	private ResultSet(Path results) {
		this.results = results;
		this.machine = readJson(results.resolve("machine.json")).orElseGet(json::createObjectNode);
	}

	static ResultSet load(Path results) {
		if (!Files.isDirectory(results)) {
			throw new IllegalArgumentException("No results in " + results + ": run the benchmarks first");
		}
		return new ResultSet(results);
	}

	JsonNode machine() {
		return this.machine;
	}

	/**
	 * Return the throughput of a contender in a scenario, combining the measured
	 * iterations of all its forks.
	 * @param scenario the scenario id
	 * @param key the contender id, or {@code nodes-N} for Redlock
	 * @return the throughput, empty if the contender did not run or failed
	 */
	Optional<Summary> throughput(String scenario, String key) {
		double[] values = iterations(scenario, key, null);
		return (values.length > 0) ? Optional.of(Summary.of(values)) : Optional.empty();
	}

	/**
	 * Return the allocation per operation, from JMH's gc profiler.
	 * @param scenario the scenario id
	 * @param key the contender id
	 * @return bytes per operation, empty if not profiled
	 */
	Optional<Summary> allocation(String scenario, String key) {
		double[] values = iterations(scenario, key, "gc.alloc.rate.norm");
		return (values.length > 0) ? Optional.of(Summary.of(values)) : Optional.empty();
	}

	/**
	 * Return how many forks of the contender produced a result.
	 * @param scenario the scenario id
	 * @param key the contender id
	 * @return the number of forks
	 */
	int forks(String scenario, String key) {
		int forks = 0;
		for (JsonNode result : jmhResults(scenario, key)) {
			forks += result.path("primaryMetric").path("rawData").size();
		}
		return forks;
	}

	/**
	 * Return how many JMH runs of the contender were started, failed or not.
	 * @param scenario the scenario id
	 * @param key the contender id
	 * @return the number of runs
	 */
	int runs(String scenario, String key) {
		return jmhFiles(scenario, key).size();
	}

	/**
	 * Return the CPU time per operation of the measured iterations, in microseconds.
	 * @param scenario the scenario id
	 * @param key the contender id
	 * @return the JVM's and Redis' CPU time per operation, empty if not measured
	 */
	Optional<CpuPerOperation> cpu(String scenario, String key) {
		long operations = 0;
		long jvm = 0;
		long redis = 0;
		long commands = 0;
		long publishes = 0;
		boolean publishesCounted = false;
		long bytesTo = 0;
		long bytesFrom = 0;
		boolean bytesCounted = false;
		for (Path file : list(BenchmarkFiles.cpu(this.results, scenario, key))) {
			Optional<JsonNode> node = readJson(file);
			if (node.isPresent()) {
				operations += node.get().path("operations").asLong();
				jvm += node.get().path("jvmCpuNanos").asLong();
				redis += node.get().path("redisCpuNanos").asLong();
				commands += node.get().path("redisCommands").asLong();
				// Results of runs before pub/sub messages were counted lack the field.
				publishesCounted |= node.get().has("pubsubMessages");
				publishes += node.get().path("pubsubMessages").asLong();
				// And those before bytes were counted lack these.
				bytesCounted |= node.get().has("bytesToRedis");
				bytesTo += node.get().path("bytesToRedis").asLong();
				bytesFrom += node.get().path("bytesFromRedis").asLong();
			}
		}
		if (operations == 0) {
			return Optional.empty();
		}
		return Optional.of(new CpuPerOperation(operations, jvm / 1000.0 / operations, redis / 1000.0 / operations,
				(double) commands / operations, publishesCounted ? OptionalLong.of(publishes) : OptionalLong.empty(),
				bytesCounted ? Optional.of((double) bytesTo / operations) : Optional.empty(),
				bytesCounted ? Optional.of((double) bytesFrom / operations) : Optional.empty()));
	}

	Optional<Percentiles> latencies(String scenario, String key) {
		return mergedHistogram(BenchmarkFiles.histograms(this.results, scenario, key)).map(Percentiles::of);
	}

	boolean overlapped(String scenario, String key) {
		return Files.exists(BenchmarkFiles.overlapMarker(this.results, scenario, key));
	}

	Optional<Percentiles> handoff(String contender) {
		Histogram merged = null;
		for (JsonNode node : handoffResults(contender)) {
			Histogram histogram = BenchmarkFiles.decode(node.path("histogram").asText());
			if (merged == null) {
				merged = histogram;
			}
			else {
				merged.add(histogram);
			}
		}
		return Optional.ofNullable(merged).filter((histogram) -> histogram.getTotalCount() > 0).map(Percentiles::of);
	}

	boolean handoffOverlapped(String contender) {
		return handoffResults(contender).stream().anyMatch((node) -> node.path("overlapped").asBoolean());
	}

	int handoffRuns(String contender) {
		return handoffResults(contender).size();
	}

	Optional<JsonNode> renewal(String contender) {
		return readJson(this.results.resolve("renewal").resolve(contender + ".json"));
	}

	private List<JsonNode> handoffResults(String contender) {
		List<JsonNode> nodes = new ArrayList<>();
		for (Path file : list(this.results.resolve("handoff"))) {
			if (isRoundOf(file, contender)) {
				readJson(file).ifPresent(nodes::add);
			}
		}
		return nodes;
	}

	private double[] iterations(String scenario, String key, String secondary) {
		List<Double> values = new ArrayList<>();
		for (JsonNode result : jmhResults(scenario, key)) {
			JsonNode metric = (secondary != null) ? result.path("secondaryMetrics").path(secondary)
					: result.path("primaryMetric");
			for (JsonNode fork : metric.path("rawData")) {
				for (JsonNode value : fork) {
					values.add(value.asDouble());
				}
			}
		}
		return values.stream().mapToDouble(Double::doubleValue).toArray();
	}

	private List<JsonNode> jmhResults(String scenario, String key) {
		List<JsonNode> results = new ArrayList<>();
		for (Path file : jmhFiles(scenario, key)) {
			readJson(file).ifPresent((array) -> array.forEach(results::add));
		}
		return results;
	}

	private List<Path> jmhFiles(String scenario, String key) {
		return list(BenchmarkFiles.jmh(this.results, scenario)).stream()
			.filter((file) -> isRoundOf(file, key))
			.toList();
	}

	/**
	 * Whether the file is {@code key-rN.json}: matched whole, since one key may begin
	 * another ({@code template} and {@code template-redis-fence}).
	 */
	private static boolean isRoundOf(Path file, String key) {
		String name = file.getFileName().toString();
		return name.startsWith(key + "-r") && name.substring(key.length() + 2).matches("\\d+\\.json");
	}

	private static Optional<Histogram> mergedHistogram(Path directory) {
		Histogram merged = null;
		for (Path file : list(directory)) {
			Histogram histogram = BenchmarkFiles.decode(read(file));
			if (merged == null) {
				merged = histogram;
			}
			else {
				merged.add(histogram);
			}
		}
		return Optional.ofNullable(merged);
	}

	private static List<Path> list(Path directory) {
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		try (Stream<Path> files = Files.list(directory)) {
			return files.sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Optional<JsonNode> readJson(Path file) {
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		String content = read(file);
		if (content.isBlank()) {
			return Optional.empty();
		}
		try {
			return Optional.of(json.readTree(content));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + file, ex);
		}
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the throughput of a contender as a multiple of another's in the same
	 * scenario.
	 * @param scenario the scenario id
	 * @param key the contender id, or {@code nodes-N} for Redlock
	 * @param baseline the contender to divide by
	 * @return the ratio, empty unless both were measured
	 */
	Optional<Double> ratio(String scenario, String key, String baseline) {
		return throughput(scenario, key).flatMap((s) -> throughput(scenario, baseline).map((b) -> s.mean() / b.mean()));
	}

	/**
	 * Return the candidate with the highest throughput in the scenario.
	 * @param scenario the scenario id
	 * @param candidates the contender ids, at least one
	 * @return the fastest, the first if none was measured
	 */
	String fastest(String scenario, List<String> candidates) {
		String best = candidates.get(0);
		double bestScore = throughput(scenario, best).map(Summary::mean).orElse(-1.0);
		for (String candidate : candidates) {
			double score = throughput(scenario, candidate).map(Summary::mean).orElse(-1.0);
			if (score > bestScore) {
				best = candidate;
				bestScore = score;
			}
		}
		return best;
	}

	/**
	 * The cost of one operation over the measured iterations.
	 *
	 * @param operations the operations measured
	 * @param jvm CPU time of the benchmark JVM, all threads, in microseconds
	 * @param redis CPU time of the Redis server, in microseconds
	 * @param commands Redis commands per operation, including those run by scripts
	 * @param publishes all {@code PUBLISH} and {@code SPUBLISH} calls over the
	 * operations, scripts' included; empty when the run did not count them
	 * @param bytesToRedis bytes Redis read per operation; empty when not counted
	 * @param bytesFromRedis bytes Redis wrote per operation; empty when not counted
	 */
	record CpuPerOperation(long operations, double jvm, double redis, double commands, OptionalLong publishes,
			Optional<Double> bytesToRedis, Optional<Double> bytesFromRedis) {

		/**
		 * Return the pub/sub messages per operation.
		 * @return the messages per operation, empty when not counted
		 */
		Optional<Double> publishesPerOperation() {
			return this.publishes.isPresent() ? Optional.of((double) this.publishes.getAsLong() / this.operations)
					: Optional.empty();
		}

	}

	static Map<String, String> versions(JsonNode machine) {
		Map<String, String> versions = new LinkedHashMap<>();
		machine.path("versions")
			.fields()
			.forEachRemaining((entry) -> versions.put(entry.getKey(), entry.getValue().asText()));
		return versions;
	}

}
