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

package io.distlock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * Where a run keeps its raw results, below one results directory: JMH's JSON, the latency
 * histograms recorded by the benchmarks, the harness measurements and the machine
 * description that the report is generated from.
 */
public final class BenchmarkFiles {

	/**
	 * The system property with the results directory of the run, set for forked JVMs.
	 */
	public static final String RESULTS_PROPERTY = "distlock.bench.results";

	/**
	 * The system property with the id that a forked JVM files its results under when it
	 * is not the id of its scenario: the scenarios run again on a second Redis version
	 * keep their results apart this way.
	 */
	public static final String RESULT_ID_PROPERTY = "distlock.bench.result-id";

	private BenchmarkFiles() {
	}

	/**
	 * Return the results directory given in {@value #RESULTS_PROPERTY}, or
	 * {@code target/benchmark-results}.
	 * @return the results directory
	 */
	public static Path resultsDirectory() {
		return Path.of(System.getProperty(RESULTS_PROPERTY, "target/benchmark-results")).toAbsolutePath();
	}

	/**
	 * Return the id that this JVM files the results of a scenario under: the one given in
	 * {@value #RESULT_ID_PROPERTY}, or the scenario's own.
	 * @param scenario the scenario the JVM runs
	 * @return the result id
	 */
	public static String resultId(Scenario scenario) {
		return System.getProperty(RESULT_ID_PROPERTY, scenario.id());
	}

	/**
	 * Return the directory of one scenario's JMH JSON files.
	 * @param results the results directory
	 * @param scenario the scenario id
	 * @return the directory
	 */
	public static Path jmh(Path results, String scenario) {
		return results.resolve("jmh").resolve(scenario);
	}

	/**
	 * Return the directory of one scenario's and contender's latency histograms.
	 * @param results the results directory
	 * @param scenario the scenario id
	 * @param contender the contender id
	 * @return the directory
	 */
	public static Path histograms(Path results, String scenario, String contender) {
		return results.resolve("histograms").resolve(scenario).resolve(contender);
	}

	/**
	 * Return the directory of one scenario's and contender's CPU measurements.
	 * @param results the results directory
	 * @param scenario the scenario id
	 * @param contender the contender id
	 * @return the directory
	 */
	public static Path cpu(Path results, String scenario, String contender) {
		return results.resolve("cpu").resolve(scenario).resolve(contender);
	}

	/**
	 * Return the marker file written when a contender let two holders overlap.
	 * @param results the results directory
	 * @param scenario the scenario id
	 * @param contender the contender id
	 * @return the file
	 */
	public static Path overlapMarker(Path results, String scenario, String contender) {
		return results.resolve("overlaps").resolve(scenario + "-" + contender + ".txt");
	}

	/**
	 * Write a histogram, compressed and base64-encoded, to a new file of the directory.
	 * @param directory the directory
	 * @param histogram the histogram
	 */
	public static void writeHistogram(Path directory, Histogram histogram) {
		writeString(directory.resolve(UUID.randomUUID() + ".hgrm"), encode(histogram));
	}

	/**
	 * Encode a histogram as base64 of its compressed form.
	 * @param histogram the histogram
	 * @return the encoded histogram
	 */
	public static String encode(Histogram histogram) {
		ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
		int length = histogram.encodeIntoCompressedByteBuffer(buffer);
		return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
	}

	/**
	 * Decode a histogram encoded by {@link #encode(Histogram)}.
	 * @param encoded the encoded histogram
	 * @return the histogram
	 */
	public static Histogram decode(String encoded) {
		try {
			return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded.trim())),
					0);
		}
		catch (DataFormatException ex) {
			throw new IllegalArgumentException("Not an encoded histogram", ex);
		}
	}

	/**
	 * Write a text file, creating its directory.
	 * @param file the file
	 * @param content the text
	 */
	public static void writeString(Path file, String content) {
		try {
			Files.createDirectories(file.getParent());
			Files.writeString(file, content, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
