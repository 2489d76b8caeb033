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

package io.distlock.docs;

import java.util.ArrayList;
import java.util.List;

import io.distlock.leader.LeaderElection;
import io.distlock.leader.LeadershipGrantedEvent;
import io.distlock.leader.LeadershipRevokedEvent;

import org.springframework.context.event.EventListener;

/**
 * The README's leader: work that only the leading instance does, fenced with the
 * leadership's token.
 */
public class CatalogPublisher {

	private final LeaderElection leaderElection;

	private final List<String> published = new ArrayList<>();

	public CatalogPublisher(LeaderElection leaderElection) {
		this.leaderElection = leaderElection;
	}

	@EventListener
	public void onGranted(LeadershipGrantedEvent event) {
		// Start what only the leader does, such as consuming a queue in order.
		this.published.add("granted " + event.getFencingToken());
	}

	@EventListener
	public void onRevoked(LeadershipRevokedEvent event) {
		// Stop it: another instance may lead now.
		this.published.add("revoked " + event.getReason());
	}

	public boolean publish(String catalog) {
		if (!this.leaderElection.isLeader()) {
			return false;
		}
		long token = this.leaderElection.getFencingToken().orElseThrow();
		this.published.add(catalog + " with token " + token);
		return true;
	}

	public List<String> published() {
		return this.published;
	}

}
