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
 * Published when this instance stopped being the leader: its leadership lock was found
 * lost, or it gave the leadership up on shutdown.
 *
 * @see LeaderElection
 */
public class LeadershipRevokedEvent extends ApplicationEvent {

	private final String name;

	private final long fencingToken;

	private final Reason reason;

	/**
	 * Create a new event.
	 * @param source the leader election
	 * @param name the name of the leadership
	 * @param fencingToken the fencing token of the leadership that ended
	 * @param reason why it ended
	 */
	public LeadershipRevokedEvent(LeaderElection source, String name, long fencingToken, Reason reason) {
		super(source);
		this.name = name;
		this.fencingToken = fencingToken;
		this.reason = reason;
	}

	/**
	 * Return the name of the leadership.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Return the fencing token of the leadership that ended.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return why the leadership ended.
	 * @return the reason
	 */
	public Reason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "LeadershipRevokedEvent[name='" + this.name + "', fencingToken=" + this.fencingToken + ", reason="
				+ this.reason + "]";
	}

	/**
	 * Why a leadership ended.
	 */
	public enum Reason {

		/**
		 * The leadership lock was found lost: its lease ran out before a renewal (Redis
		 * unreachable, a long pause), or it was removed. Another instance may lead now.
		 */
		LOST,

		/**
		 * This instance gave the leadership up: its application is shutting down.
		 */
		STOPPED

	}

}
