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

package io.distlock.test;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit Jupiter extension that starts a {@link RedisCluster} before all tests of a class
 * and closes it after them, whatever their outcome. Register it on a static field:
 * <pre class="code">
 * &#064;RegisterExtension
 * static final RedisClusterExtension redis = RedisClusterExtension.of(3, 1);
 * </pre> Before each test every primary is flushed; after each test every node the test
 * stopped, killed or paused is brought back and the cluster is awaited healthy, so faults
 * do not leak into the next test. Failovers and slot moves are not undone.
 */
public final class RedisClusterExtension
		implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

	private final RedisCluster.Builder builder;

	private @Nullable RedisCluster cluster;

	private @Nullable String owner;

	private RedisClusterExtension(RedisCluster.Builder builder) {
		this.builder = builder;
	}

	/**
	 * Create an extension for a cluster of the given shape.
	 * @param primaries how many primaries share the slots
	 * @param replicasPerPrimary how many replicas each primary gets
	 * @param extraArgs further {@code redis-server} arguments given to every node
	 * @return the extension
	 */
	public static RedisClusterExtension of(int primaries, int replicasPerPrimary, String... extraArgs) {
		return of(RedisCluster.builder()
			.primaries(primaries)
			.replicasPerPrimary(replicasPerPrimary)
			.extraArgs(extraArgs));
	}

	/**
	 * Create an extension for the cluster the given builder starts.
	 * @param builder the configured builder
	 * @return the extension
	 */
	public static RedisClusterExtension of(RedisCluster.Builder builder) {
		return new RedisClusterExtension(builder);
	}

	/**
	 * Return the running cluster.
	 * @return the cluster
	 * @throws IllegalStateException outside the tests of the class
	 */
	public RedisCluster cluster() {
		RedisCluster cluster = this.cluster;
		if (cluster == null) {
			throw new IllegalStateException(
					"Redis Cluster is not started: register RedisClusterExtension with @RegisterExtension on a static field");
		}
		return cluster;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		// Nested test classes call this again; the cluster of the outermost class serves
		// them all.
		if (this.cluster != null) {
			return;
		}
		this.cluster = this.builder.start();
		this.owner = context.getUniqueId();
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		cluster().primaries().forEach(RedisEndpoint::flushAll);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		RedisCluster cluster = cluster();
		for (RedisServer node : cluster.nodes()) {
			if (!node.isRunning() || node.isPaused()) {
				cluster.rejoin(node);
			}
		}
		cluster.awaitHealthy();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		RedisCluster cluster = this.cluster;
		if (cluster == null || !context.getUniqueId().equals(this.owner)) {
			return;
		}
		this.cluster = null;
		this.owner = null;
		cluster.close();
	}

}
