// What the tournament pages share (design §10): the API calls they make and a format's name.
import { call } from "/static/js/api.js";
import { t } from "/static/js/i18n.js";

export const formatWord = (format) => t(`tournaments.format.${format}`);

// One call of the tournament routes: JSON in and out, a refusal as a Problem (its words()).
export const json = (method, path, body) => call(method, path, { body });
