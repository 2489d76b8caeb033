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

import java.net.URI;
import java.net.URISyntaxException;

import io.lettuce.core.RedisURI;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The node URLs of {@link RedlockNodes}, checked before any is connected to. Their
 * messages name a URL by its index and at most its scheme, never a part that may hold
 * credentials.
 */
final class NodeUrls {

	private NodeUrls() {
	}

	/**
	 * Check a node URL and read the server it names.
	 * @throws IllegalArgumentException if the URL is invalid or names no standalone Redis
	 * master
	 */
	static Node parse(int index, String url) {
		String problem = problem(url);
		if (problem != null) {
			throw invalid(index, url, problem);
		}
		RedisURI uri;
		try {
			uri = RedisURI.create(url);
		}
		catch (RuntimeException ex) {
			// Without the cause, whose message may quote the URL.
			throw invalid(index, url, "Lettuce cannot read it");
		}
		// Spring Data Redis maps the URL's host, port, database and credentials, on every
		// Lettuce version it supports (Lettuce 7 removed RedisURI.getPassword()).
		if (!(uri.getSentinels().isEmpty() && uri.getSocket() == null && LettuceConnectionFactory
			.createRedisConfiguration(uri) instanceof RedisStandaloneConfiguration server)) {
			throw new IllegalArgumentException(
					"distlock.redlock.nodes[" + index + "] must name one standalone Redis master");
		}
		return new Node(server, uri.isSsl());
	}

	/**
	 * Return why the URL cannot name a Redis node, in words of our own: the messages of
	 * the URI and Lettuce parsers quote the URL.
	 */
	private static @Nullable String problem(String url) {
		if (scheme(url) == null) {
			return "it does not start with redis:// or rediss://";
		}
		URI syntax;
		try {
			syntax = new URI(url);
		}
		catch (URISyntaxException ex) {
			return "it is no URI; a character in it needs percent-encoding";
		}
		if (syntax.getHost() == null) {
			return "it names no host, or its port is not a number";
		}
		return null;
	}

	static IllegalArgumentException invalid(int index, String url, String problem) {
		return new IllegalArgumentException(
				"distlock.redlock.nodes[" + index + "] " + shown(url) + " is not a valid Redis URL: " + problem
						+ ". Expected redis://[[user]:password@]host[:port][/database] or rediss://...; percent-encode "
						+ "a ',', '@', '/', '#' or '%' in the user or password (a comma splits the comma-separated "
						+ "property in two)");
	}

	/**
	 * Show an invalid URL by its scheme alone, if it is one of Redis: anything else of it
	 * may be, or hold, a user name or password.
	 */
	private static String shown(String url) {
		return (scheme(url) != null) ? "(" + redact(url) + ", the rest not shown)" : "(not shown)";
	}

	/**
	 * Return the scheme of a node URL alone, {@code ...} for anything but a Redis one:
	 * see {@link RedlockNodes#redact}.
	 */
	static String redact(String url) {
		String scheme = scheme(url);
		return (scheme != null) ? scheme + "..." : "...";
	}

	private static @Nullable String scheme(String url) {
		for (String scheme : new String[] { "redis://", "rediss://" }) {
			if (url.startsWith(scheme)) {
				return scheme;
			}
		}
		return null;
	}

	/**
	 * A node URL that was checked and is about to be connected to.
	 *
	 * @param server the host, port, database and credentials
	 * @param ssl whether to connect with TLS
	 */
	record Node(RedisStandaloneConfiguration server, boolean ssl) {

	}

}
