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

package io.distlock.leader;

import org.springframework.context.ApplicationEvent;

/**
 * Published when this instance became the leader: it holds the leadership lock from now
 * on, until a {@link LeadershipRevokedEvent}.
 *
 * @see LeaderElection
 */
public class LeadershipGrantedEvent extends ApplicationEvent {

	private final String name;

	private final long fencingToken;

	/**
	 * Create a new event.
	 * @param source the leader election
	 * @param name the name of the leadership
	 * @param fencingToken the fencing token of this leadership, greater than that of
	 * every leader before
	 */
	public LeadershipGrantedEvent(LeaderElection source, String name, long fencingToken) {
		super(source);
		this.name = name;
		this.fencingToken = fencingToken;
	}

	/**
	 * Return the name of the leadership.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the fencing token of this leadership, for the leader's writes.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	@Override
	public String toString() {
		return "LeadershipGrantedEvent[name='" + this.name + "', fencingToken=" + this.fencingToken + "]";
	}

}
