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

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The reply of a Redlock node whose call failed or was not answered in time: why, for the
 * exception thrown when too few nodes answered (see {@link NodeCalls#answered}).
 *
 * @param node the node's index
 * @param why what happened, naming no credentials or owner tokens
 */
record NodeFailure(int node, String why) {

	/**
	 * The failure of a node's call.
	 * @param node the node's index
	 * @param ex what the call threw, or the wait for it
	 * @param waited how long its reply was awaited
	 * @return the failure
	 */
	static NodeFailure of(int node, Throwable ex, Duration waited) {
		Throwable cause = ((ex instanceof ExecutionException || ex instanceof CompletionException)
				&& ex.getCause() != null) ? ex.getCause() : ex;
		String message = cause.getMessage();
		if (cause instanceof TimeoutException || message == null) {
			return new NodeFailure(node, "no answer within " + waited.toMillis() + "ms");
		}
		return new NodeFailure(node, message);
	}

}
