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

package io.distlock;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

import org.springframework.util.Assert;

/**
 * What to lock when one piece of work needs several keys at once, such as both accounts
 * of a money transfer: all of them are taken, or none.
 *
 * <pre class="code">
 * lockTemplate.executeAll(MultiLockRequest.of(List.of("account:" + from, "account:" + to), ttl, wait),
 *         (locks) -&gt; transfer(from, to, amount));
 * </pre>
 *
 * <p>
 * The keys are held in one global order, their natural String order, whatever order the
 * caller gave them in, and duplicates collapse: two calls with overlapping keys then
 * never wait for each other in a cycle. A call never waits while it holds some of its
 * keys: it gives back what it took before it waits for the key that was busy, and before
 * it gives up.
 *
 * @param keys the lock keys, without the configured key prefix, each as in
 * {@link LockRequest#key()}; at least one and at most {@value #MAX_KEYS}, kept sorted and
 * without duplicates
 * @param ttl the lease time of each key, as in {@link LockRequest#ttl()}
 * @param waitTime how long to wait until all keys are free at once; zero means try once
 * @param autoRenew whether the leases are renewed while the keys are held
 * @param mode how every key is held: exclusive (or write), or shared with other readers
 * @param name what kind of lock this is, as in {@link LockRequest#name()}
 */
public record MultiLockRequest(List<String> keys, Duration ttl, Duration waitTime, boolean autoRenew, LockMode mode,
		String name) {

	/**
	 * The most keys one request may hold.
	 */
	public static final int MAX_KEYS = 1000;

	/**
	 * Validate the request, and sort its keys into their global order without duplicates.
	 * @throws IllegalArgumentException naming the argument that is invalid
	 */
	public MultiLockRequest {
		Assert.isTrue(keys != null && !keys.isEmpty(), "'keys' must not be empty");
		TreeSet<String> sorted = new TreeSet<>();
		for (String key : keys) {
			LockKeys.validate(key);
			sorted.add(key);
		}
		Assert.isTrue(sorted.size() <= MAX_KEYS,
				() -> "'keys' must hold at most " + MAX_KEYS + " distinct keys but held " + sorted.size());
		keys = List.copyOf(sorted);
		// Validates the other components as a single-key request does.
		LockRequest.builder(keys.get(0)).ttl(ttl).waitTime(waitTime).autoRenew(autoRenew).name(name).mode(mode).build();
	}

	/**
	 * Create an exclusive request whose leases are renewed while held.
	 * @param keys the lock keys
	 * @param ttl the lease time of each key
	 * @param waitTime how long to wait until all keys are free at once
	 * @return the request
	 * @throws IllegalArgumentException if an argument is invalid
	 */
	public static MultiLockRequest of(Collection<String> keys, Duration ttl, Duration waitTime) {
		Assert.notNull(keys, "'keys' must not be null");
		return new MultiLockRequest(List.copyOf(keys), ttl, waitTime, true, LockMode.EXCLUSIVE, "");
	}

	/**
	 * Return a copy of this request with the given renewal setting.
	 * @param autoRenew whether the leases are renewed while the keys are held
	 * @return the new request
	 */
	public MultiLockRequest withAutoRenew(boolean autoRenew) {
		return new MultiLockRequest(this.keys, this.ttl, this.waitTime, autoRenew, this.mode, this.name);
	}

	/**
	 * Return a copy of this request with the given mode for every key.
	 * @param mode how every key is held
	 * @return the new request
	 */
	public MultiLockRequest withMode(LockMode mode) {
		return new MultiLockRequest(this.keys, this.ttl, this.waitTime, this.autoRenew, mode, this.name);
	}

	/**
	 * Return a copy of this request with the given name.
	 * @param name what kind of lock this is; empty for none
	 * @return the new request
	 */
	public MultiLockRequest withName(String name) {
		return new MultiLockRequest(this.keys, this.ttl, this.waitTime, this.autoRenew, this.mode, name);
	}

	/**
	 * Return the request for one of the keys, with this request's settings.
	 * @param key one of the keys
	 * @return the single-key request
	 */
	public LockRequest requestFor(String key) {
		return LockRequest.builder(key)
			.ttl(this.ttl)
			.waitTime(this.waitTime)
			.autoRenew(this.autoRenew)
			.name(this.name)
			.mode(this.mode)
			.build();
	}

}
