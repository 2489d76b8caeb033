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

package io.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Who holds a lock, as the instance that took it described itself in the same call that
 * took it: its instance name, the thread that asked, the lock's name and when it asked. A
 * store that keeps owner tokens as they are given keeps this description with the lock
 * and removes it with the lock, at no cost of its own.
 *
 * <p>
 * The description travels inside the owner token, after the owner's secret and a
 * {@link #SEPARATOR}: {@code secret␟instance␟thread␟name␟epoch-millis}. A store hands out
 * only what follows the first separator ({@link #parse(String)}), never the secret part,
 * which is all an owner needs to release or renew the lock. Each field is bounded in size
 * and free of control characters, so a description fits in a few hundred bytes whatever a
 * thread or a lock is called. An owner token without a separator describes no holder.
 *
 * @param instance the name of the instance that holds the lock (see
 * {@code distlock.instance-name})
 * @param thread the name of the thread that took the lock
 * @param name the lock's name, such as the annotated method; empty when unnamed
 * @param acquiredAt when the holder asked for the lock, by its own clock, or {@code null}
 * when not known
 */
public record LockHolder(String instance, String thread, String name, @Nullable Instant acquiredAt) {

	/**
	 * The character between an owner token's secret and its holder's description, and
	 * between the description's fields: U+001F, the ASCII unit separator.
	 */
	public static final char SEPARATOR = '\u001F';

	/**
	 * The most characters kept of an instance name.
	 */
	public static final int MAX_INSTANCE_LENGTH = 100;

	/**
	 * The most characters kept of a thread name.
	 */
	public static final int MAX_THREAD_LENGTH = 100;

	/**
	 * The most characters kept of a lock name.
	 */
	public static final int MAX_NAME_LENGTH = 200;

	/**
	 * Create a description, bounding each field and replacing control characters.
	 * @param instance the instance name
	 * @param thread the thread name
	 * @param name the lock's name, empty when unnamed
	 * @param acquiredAt when the holder asked, or {@code null}
	 */
	public LockHolder {
		instance = bounded(instance, MAX_INSTANCE_LENGTH);
		thread = bounded(thread, MAX_THREAD_LENGTH);
		name = bounded(name, MAX_NAME_LENGTH);
	}

	/**
	 * Return an owner token that carries this description after the given secret.
	 * @param secret the unguessable part of the owner token, free of {@link #SEPARATOR}
	 * @return {@code secret␟instance␟thread␟name␟epoch-millis}
	 */
	public String ownerToken(String secret) {
		if (secret.indexOf(SEPARATOR) >= 0) {
			throw new IllegalArgumentException("An owner token's secret must not contain U+001F");
		}
		String millis = (this.acquiredAt != null) ? Long.toString(this.acquiredAt.toEpochMilli()) : "";
		return secret + SEPARATOR + this.instance + SEPARATOR + this.thread + SEPARATOR + this.name + SEPARATOR
				+ millis;
	}

	/**
	 * Return the holder that an owner token describes.
	 * @param ownerToken an owner token, with or without a description
	 * @return the holder, or {@code null} when the token describes none
	 */
	public static @Nullable LockHolder ofOwnerToken(@Nullable String ownerToken) {
		if (ownerToken == null) {
			return null;
		}
		int separator = ownerToken.indexOf(SEPARATOR);
		return (separator >= 0) ? parse(ownerToken.substring(separator + 1)) : null;
	}

	/**
	 * Read a description as a store hands it out: what follows the first separator of an
	 * owner token.
	 * @param description {@code instance␟thread␟name␟epoch-millis}, or {@code null}
	 * @return the holder, or {@code null} when there is no description or it is not one
	 */
	public static @Nullable LockHolder parse(@Nullable String description) {
		if (description == null) {
			return null;
		}
		String[] fields = description.split(String.valueOf(SEPARATOR), -1);
		if (fields.length != 4) {
			return null;
		}
		Instant acquiredAt = null;
		try {
			acquiredAt = fields[3].isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(fields[3]));
		}
		catch (RuntimeException ex) {
			// Not a time that distlock wrote: the rest still says who.
		}
		return new LockHolder(fields[0], fields[1], fields[2], acquiredAt);
	}

	/**
	 * Describe the holder for a message, such as
	 * {@code instance 'orders@host:1234', thread 'http-nio-8080-exec-1'}.
	 * @return the description
	 */
	public String describe() {
		return "instance '" + this.instance + "', thread '" + this.thread + "'";
	}

	private static String bounded(@Nullable String value, int length) {
		if (value == null) {
			return "";
		}
		String kept = (value.length() > length) ? value.substring(0, length) : value;
		StringBuilder clean = null;
		for (int i = 0; i < kept.length(); i++) {
			if (Character.isISOControl(kept.charAt(i))) {
				if (clean == null) {
					clean = new StringBuilder(kept);
				}
				clean.setCharAt(i, '?');
			}
		}
		return (clean != null) ? clean.toString() : kept;
	}

}
