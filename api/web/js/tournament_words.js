// What the tournament pages share (design §10): the API calls they make and a format's name.
import { Problem, parseJSON } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

export const formatWord = (format) => t(`tournaments.format.${format}`);

// One call of the tournament routes: JSON in and out, a refusal as a Problem (its words()).
export async function json(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  const parsed = text ? parseJSON(text) : null;
  if (!response.ok) throw new Problem(parsed || {}, response.status);
  return parsed;
}
