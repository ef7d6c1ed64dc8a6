// Dynamic registration's last page (GET /lti/register redirects here inside the LMS's frame or window): says the LMS
// was registered and tells the LMS to close its registration frame (LTI Dynamic Registration's close message).
import { $ } from '../ui/dom.js';

const name = new URLSearchParams(location.search).get('name');
if (name) $('registered-name').textContent = name;
(window.opener ?? window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
