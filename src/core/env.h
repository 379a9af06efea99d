/* Environment knobs (internal). */
#ifndef PDNN_CORE_ENV_H
#define PDNN_CORE_ENV_H

/* Integer value of an environment variable, or def when unset or not a number. */
long pdnn_env_long(const char *name, long def);
/* Value of an environment variable or NULL (read once per call). */
const char *pdnn_env_str(const char *name);
/* True when the comma-separated PDNN_VERBOSE list names this topic ("dispatch"); the
 * variable is read once, at the first call (its first 255 characters). */
int pdnn_verbose(const char *topic);

#endif
