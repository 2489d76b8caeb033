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

package io.distlock.redlock;

import java.util.List;

import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockState;
import io.distlock.store.RaisableFencingLockClient;

/**
 * The inspection and forced release of a {@link RedlockClient}'s locks: each asks every
 * node at once, and needs nodes that are {@link InspectableLockClient}s themselves.
 */
final class NodeInspection {

	private final List<RaisableFencingLockClient> nodes;

	private final NodeCalls calls;

	private final int quorum;

	/**
	 * Create the inspection over the given nodes.
	 * @param nodes the nodes
	 * @param calls the calls to the nodes
	 * @param quorum how many nodes must agree for the lock to be held
	 */
	NodeInspection(List<RaisableFencingLockClient> nodes, NodeCalls calls, int quorum) {
		this.nodes = nodes;
		this.calls = calls;
		this.quorum = quorum;
	}

	/**
	 * Inspect the lock on every node: see {@link RedlockClient#inspect}.
	 */
	LockState inspect(String key) {
		assertInspectable();
		return MajorityState.of(
				this.calls.answeredOnAll(key, "inspect", (node) -> ((InspectableLockClient) node).inspect(key)),
				this.quorum);
	}

	/**
	 * Remove the lock on every node: see {@link RedlockClient#forceRelease}.
	 */
	boolean forceRelease(String key) {
		assertInspectable();
		return NodeCalls.count(this.calls.answeredOnAll(key, "force-release",
				(node) -> ((InspectableLockClient) node).forceRelease(key))) > 0;
	}

	/**
	 * Check, before any node is called, that every node can be inspected: a node failing
	 * the call on its thread would count as a node not answering.
	 */
	private void assertInspectable() {
		for (RaisableFencingLockClient node : this.nodes) {
			if (!(node instanceof InspectableLockClient)) {
				throw new UnsupportedOperationException("Redlock node " + node.getClass().getName()
						+ " cannot inspect or force-release locks (it is no InspectableLockClient)");
			}
		}
	}

}
